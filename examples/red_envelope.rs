//! Red envelopes: users grab prizes, one each, each prize once, and every
//! grant is queued for persistence, all by one script per grab.
//!
//! Run: `cargo run --example red_envelope` (starts a throwaway redis-server
//! unless REDIS_URL names one).

use redis_script_test::server;

use redis_script::recipes::red_envelope::{Grab, RedEnvelopes};

/// `pub` so that `examples/tour.rs` can run it too.
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (_server, client) = server::client_from_env_or_start()?;
    let mut con = client.get_connection()?;

    let campaign = RedEnvelopes::new("spring-festival");
    // Granted in this order: shuffle the amounts first for a random draw.
    let loaded = campaign.load(&mut con, &[888, 66, 520])?;
    println!("loaded {} envelopes: {loaded:?}", loaded.len());

    for user in ["alice", "bob", "alice", "carol", "dave"] {
        match campaign.grab(&mut con, user)? {
            Grab::Granted(envelope) => {
                println!(
                    "{user:>5} grabs envelope #{} with {}",
                    envelope.id, envelope.amount
                )
            }
            Grab::AlreadyGranted(envelope) => {
                println!(
                    "{user:>5} tries again and is shown envelope #{}",
                    envelope.id
                )
            }
            Grab::SoldOut => println!("{user:>5} finds none left"),
        }
    }

    // A worker persists the grants, oldest first, then removes them.
    let consumed = campaign.consumed(&mut con)?;
    for envelope in &consumed {
        println!("persist {}", serde_json::to_string(envelope)?);
    }
    let removed = campaign.remove_consumed(&mut con, consumed.len())?;
    println!(
        "removed {removed} persisted records from {}",
        campaign.consumed_key()
    );
    Ok(())
}

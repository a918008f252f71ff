//! A capped leaderboard: the best N scores under a ceiling, each submission
//! applied atomically by one script.
//!
//! Run: `cargo run --example leaderboard` (starts a throwaway redis-server
//! unless REDIS_URL names one).

use redis_script_test::server;

use redis_script::recipes::leaderboard::Leaderboard;

/// `pub` so that `examples/tour.rs` can run it too.
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (_server, client) = server::client_from_env_or_start()?;
    let mut con = client.get_connection()?;

    // The three best book ratings, out of 5 stars.
    let board = Leaderboard::new("top-books", 3, 5.0);
    let submissions = [
        ("dune", 4.5),
        ("emma", 3.9),
        ("ulysses", 4.1),
        ("hamlet", 4.7),
        ("beloved", 3.9),
        ("emma", 4.8),
        ("dracula", 5.5),
        ("ulysses", 4.2),
    ];
    for (book, rating) in submissions {
        match board.submit(&mut con, book, rating) {
            Ok(outcome) => println!("{book:>8} {rating}: {outcome:?}"),
            Err(error) => println!("{book:>8} {rating}: refused ({error})"),
        }
    }
    println!("top {}:", board.capacity());
    for (rank, (book, rating)) in board.top(&mut con)?.iter().enumerate() {
        println!("  {}. {book} ({rating})", rank + 1);
    }
    Ok(())
}

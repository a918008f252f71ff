// `load_all` takes a synchronous connection; an async one goes to `load_all_async`.
async fn deploy(con: &mut redis_script::redis::aio::MultiplexedConnection) -> Result<(), redis_script::Error> {
    redis_script::load_all(con)?;
    Ok(())
}

fn main() {}

//! Cluster redirections (MOVED, ASK) in the replies of a
//! `redis::cluster::ClusterPipeline`, which redis-rs does not follow there.

use redis::RedisError;

/// The positions, among a cluster pipeline's queued commands, of those
/// that a cluster redirection (`MOVED` or `ASK`) refused, read from the
/// error of its failed `query`.
///
/// While slots move (resharding: `ASK` during a migration, `MOVED` after
/// it) a `redis::cluster::ClusterPipeline` sends each command to the node
/// its slot map names and does not follow a redirection: `query` fails
/// with an error listing each failed position
/// ([`RedisError::into_server_errors`]), and the replies of the commands
/// that did run are not returned. A redirected command did not run on any
/// node, so it is safe to run again: run each of these calls once more
/// with [`Invocation::invoke`](crate::Invocation::invoke) on the same
/// `ClusterConnection`, which follows `MOVED` and `ASK` for single
/// commands. Every other position ran (or failed with its own error): do
/// not run it again. Empty for an error that lists no server errors (a lost
/// connection: then any command may have run).
///
/// ```ignore
/// let calls = [incr(&key_a), incr(&key_b)];
/// let mut pipe = redis::cluster::cluster_pipe();
/// for call in &calls {
///     pipe.eval_script(call)?;
/// }
/// if let Err(error) = pipe.query::<Vec<i64>>(&mut con) {
///     for position in redis_script::redirected_commands(&error) {
///         calls[position].invoke(&mut con)?;
///     }
/// }
/// ```
pub fn redirected_commands(error: &RedisError) -> Vec<usize> {
    let Some(failures) = error.clone().into_server_errors() else {
        return Vec::new();
    };
    failures
        .iter()
        .filter(|(_, failure)| is_redirection(failure.code()))
        .map(|(position, _)| *position)
        .collect()
}

/// Whether a server error code redirects a command to another node.
fn is_redirection(code: &str) -> bool {
    code == "MOVED" || code == "ASK"
}

#[cfg(test)]
mod tests {
    use redis::Value;

    use super::redirected_commands;

    fn server_error(resp: &str) -> redis::RedisError {
        match redis::parse_redis_value(resp.as_bytes()).unwrap() {
            Value::ServerError(error) => error.into(),
            other => panic!("not an error reply: {other:?}"),
        }
    }

    #[test]
    fn only_redirections_are_listed() {
        let moved = server_error("-MOVED 3999 127.0.0.1:6381\r\n");
        assert_eq!(redirected_commands(&moved), [0]);
        let ask = server_error("-ASK 3999 127.0.0.1:6381\r\n");
        assert_eq!(redirected_commands(&ask), [0]);
        let raised = server_error("-ERR user_script:1: boom\r\n");
        assert!(redirected_commands(&raised).is_empty());
        let lost: redis::RedisError =
            std::io::Error::from(std::io::ErrorKind::UnexpectedEof).into();
        assert!(redirected_commands(&lost).is_empty());
    }
}

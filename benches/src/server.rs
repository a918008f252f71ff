//! The measured server: the test harness's throwaway `redis-server`, moved
//! to a CPU of its own.

use redis_script_test::{RedisServer, ServerBinary};

use crate::sys;

/// A throwaway server, pinned (unless pinning is off).
pub struct Server {
    pub inner: RedisServer,
    /// Where it may run, as the kernel says after pinning.
    pub cpus: String,
}

impl Server {
    /// Starts a server and moves all its threads to `cpu` (if it can).
    pub fn start(cpu: Option<usize>) -> Server {
        let inner = RedisServer::start();
        let mut con = inner.connection();
        let info: String = redis::cmd("INFO")
            .arg("server")
            .query(&mut con)
            .expect("INFO server");
        let pid = info
            .lines()
            .find_map(|line| line.trim().strip_prefix("process_id:"))
            .expect("INFO server names the process id")
            .to_string();
        if let Some(cpu) = cpu {
            let number: u32 = pid.parse().expect("a numeric process id");
            if let Err(error) = sys::pin_process(number, cpu) {
                eprintln!("running redis-server unpinned: {error}");
            }
        }
        let cpus = sys::allowed_cpus(&pid);
        Server { inner, cpus }
    }

    /// A new synchronous connection.
    pub fn connection(&self) -> redis::Connection {
        self.inner.connection()
    }

    /// A client of the server.
    pub fn client(&self) -> redis::Client {
        self.inner.client()
    }

    pub fn port(&self) -> u16 {
        self.inner.port()
    }
}

/// The `redis-benchmark` beside the server binary the tests would start.
pub fn benchmark_binary() -> std::path::PathBuf {
    ServerBinary::find().companion("benchmark")
}

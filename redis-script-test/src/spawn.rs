//! Servers that die with the test process, however it ends.
//!
//! `Drop` stops a server when a test passes or panics. A process that is
//! killed (a SIGTERM from a test runner's timeout, a SIGKILL, an abort)
//! runs no `Drop`, so on Linux each server is also started with
//! `PR_SET_PDEATHSIG`: the kernel sends it SIGKILL when the thread that
//! started it ends. That thread must live as long as the process, not as
//! long as one test (a test's thread ends while a server it started for a
//! later test may still run), so every server is started by one thread of
//! this module's own, which returns only when the process that ran the
//! tests is gone.
//!
//! That covers a stopped `cargo test` too: Cargo does not pass a SIGTERM
//! on to the test binary it runs, which goes on as an orphan. The spawning
//! thread watches for that (its process's parent changes) and returns,
//! and the kernel kills every server it started.

use std::io;
use std::process::{Child, Command};
use std::sync::Mutex;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

/// How often the spawning thread checks that the process's parent lives.
const ORPHAN_POLL: Duration = Duration::from_millis(100);

/// A command to start, and where to send the started child.
type Request = (Command, Sender<io::Result<Child>>);

/// The sending end of the spawning thread's queue, started on first use.
static SPAWNER: Mutex<Option<Sender<Request>>> = Mutex::new(None);

/// Starts `command` from the process's spawning thread, so that the child
/// outlives the caller's thread but not the process.
pub(crate) fn spawn(command: Command) -> io::Result<Child> {
    let (reply, answer) = mpsc::channel();
    let stopped = || {
        io::Error::other(
            "no more servers: the process that ran the tests (cargo test) has exited, \
             and the servers started for them were stopped",
        )
    };
    spawner()?.send((command, reply)).map_err(|_| stopped())?;
    answer.recv().map_err(|_| stopped())?
}

fn spawner() -> io::Result<Sender<Request>> {
    let mut slot = SPAWNER
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(sender) = slot.as_ref() {
        return Ok(sender.clone());
    }
    let (sender, requests) = mpsc::channel::<Request>();
    thread::Builder::new()
        .name("redis-script-test-spawner".to_owned())
        .spawn(move || {
            // The static's sender keeps the queue open: this returns only
            // when the parent is gone.
            let parent = parent();
            loop {
                let request = requests.recv_timeout(ORPHAN_POLL);
                // Checked on every turn: a busy suite never lets it time out.
                if orphaned(parent) {
                    return;
                }
                match request {
                    Ok((mut command, reply)) => {
                        dies_with_this_thread(&mut command);
                        let _ = reply.send(command.spawn());
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            }
        })?;
    *slot = Some(sender.clone());
    Ok(sender)
}

/// The process's parent now.
#[cfg(unix)]
fn parent() -> u32 {
    std::os::unix::process::parent_id()
}

#[cfg(not(unix))]
fn parent() -> u32 {
    0
}

/// Whether the parent the process started with is gone (the process was
/// handed to another; a process started by init is never orphaned).
fn orphaned(parent_at_start: u32) -> bool {
    parent_at_start > 1 && parent() != parent_at_start
}

/// Asks the kernel to SIGKILL the child when the spawning thread ends.
#[cfg(target_os = "linux")]
fn dies_with_this_thread(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec the closure calls only async-signal-safe
    // functions (prctl, getppid, _exit) and allocates nothing.
    let parent = std::process::id() as libc::pid_t;
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(io::Error::last_os_error());
            }
            // The parent may have died before the request took effect.
            if libc::getppid() != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

/// Elsewhere only `Drop` stops a server: a test process killed from
/// outside leaves its servers running.
#[cfg(not(target_os = "linux"))]
fn dies_with_this_thread(_command: &mut Command) {}

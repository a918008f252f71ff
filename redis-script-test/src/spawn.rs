//! Servers that die with the test process, however it ends.
//!
//! `Drop` stops a server when a test passes or panics. A process that is
//! killed (a SIGTERM from a test runner's timeout, a SIGKILL, an abort)
//! runs no `Drop`, so on Linux each server is also started with
//! `PR_SET_PDEATHSIG`: the kernel sends it SIGKILL when the thread that
//! started it ends. That thread must live as long as the process, not as
//! long as one test (a test's thread ends while a server it started for a
//! later test may still run), so every server is started by one thread of
//! this module's own, which never returns.

use std::io;
use std::process::{Child, Command};
use std::sync::Mutex;
use std::sync::mpsc::{self, Sender};
use std::thread;

/// A command to start, and where to send the started child.
type Request = (Command, Sender<io::Result<Child>>);

/// The sending end of the spawning thread's queue, started on first use.
static SPAWNER: Mutex<Option<Sender<Request>>> = Mutex::new(None);

/// Starts `command` from the process's spawning thread, so that the child
/// outlives the caller's thread but not the process.
pub(crate) fn spawn(command: Command) -> io::Result<Child> {
    let (reply, answer) = mpsc::channel();
    spawner()?
        .send((command, reply))
        .map_err(|_| io::Error::other("the server-spawning thread has stopped"))?;
    answer
        .recv()
        .map_err(|_| io::Error::other("the server-spawning thread has stopped"))?
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
            // Never returns while the process runs: the statics' sender
            // keeps the queue open.
            for (mut command, reply) in requests {
                dies_with_this_thread(&mut command);
                let _ = reply.send(command.spawn());
            }
        })?;
    *slot = Some(sender.clone());
    Ok(sender)
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

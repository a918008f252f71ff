//! What the harness asks of Linux: CPU time (getrusage), pinning
//! (sched_setaffinity, `taskset`), and facts about the machine.
//!
//! The two C calls are declared here rather than taken from a crate, to keep
//! the harness's dependencies to the project's own.

use std::io;
use std::process::Command;
use std::time::Duration;

#[cfg(target_os = "linux")]
mod ffi {
    /// `struct timeval` on 64-bit Linux.
    #[repr(C)]
    #[derive(Default)]
    pub struct Timeval {
        pub tv_sec: i64,
        pub tv_usec: i64,
    }

    /// `struct rusage` on 64-bit Linux: two timevals and 14 longs.
    #[repr(C)]
    #[derive(Default)]
    pub struct Rusage {
        pub utime: Timeval,
        pub stime: Timeval,
        pub rest: [i64; 14],
    }

    pub const RUSAGE_CHILDREN: i32 = -1;
    pub const RUSAGE_THREAD: i32 = 1;

    unsafe extern "C" {
        pub fn getrusage(who: i32, usage: *mut Rusage) -> i32;
        pub fn sched_setaffinity(pid: i32, size: usize, mask: *const u64) -> i32;
    }
}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn rusage(who: i32) -> Duration {
    let mut usage = ffi::Rusage::default();
    // SAFETY: `usage` is a valid, writable `struct rusage` for 64-bit Linux.
    let status = unsafe { ffi::getrusage(who, &mut usage) };
    if status != 0 {
        return Duration::ZERO;
    }
    let micros = |t: &ffi::Timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    Duration::from_micros(micros(&usage.utime) + micros(&usage.stime))
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn rusage(_who: i32) -> Duration {
    Duration::ZERO
}

/// User + system CPU time of the calling thread so far.
pub fn thread_cpu() -> Duration {
    #[cfg(target_os = "linux")]
    return rusage(ffi::RUSAGE_THREAD);
    #[cfg(not(target_os = "linux"))]
    return rusage(0);
}

/// User + system CPU time of the finished, waited-for child processes.
pub fn children_cpu() -> Duration {
    #[cfg(target_os = "linux")]
    return rusage(ffi::RUSAGE_CHILDREN);
    #[cfg(not(target_os = "linux"))]
    return rusage(0);
}

/// Pins the calling thread to `cpu`; called first thing, it pins the whole
/// process, and every thread and child process started later inherits it.
pub fn pin_self(cpu: usize) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        let mut mask = [0u64; 16];
        let word = mask
            .get_mut(cpu / 64)
            .ok_or_else(|| io::Error::other(format!("CPU {cpu} is out of range")))?;
        *word |= 1 << (cpu % 64);
        // SAFETY: `mask` is a 1024-bit cpu_set_t of the size passed.
        let status = unsafe { ffi::sched_setaffinity(0, size_of_val(&mask), mask.as_ptr()) };
        if status != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = cpu;
        Err(io::Error::other("pinning needs Linux"))
    }
}

/// Moves every thread of process `pid` to `cpu`, with `taskset`.
pub fn pin_process(pid: u32, cpu: usize) -> io::Result<()> {
    let output = Command::new("taskset")
        .args(["-a", "-p", "-c", &cpu.to_string(), &pid.to_string()])
        .output()?;
    if !output.status.success() {
        return Err(io::Error::other(format!(
            "taskset -a -p -c {cpu} {pid} failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    Ok(())
}

/// The CPUs process `pid` may run on, as `/proc/<pid>/status` lists them.
pub fn allowed_cpus(pid: &str) -> String {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("Cpus_allowed_list:"))
                .map(|list| list.trim().to_string())
        })
        .unwrap_or_else(|| "?".into())
}

/// The CPU model and the number of logical CPUs, from `/proc/cpuinfo`.
pub fn cpu_model() -> (String, usize) {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info
        .lines()
        .find_map(|line| {
            let (key, value) = line.split_once(':')?;
            (key.trim() == "model name").then(|| value.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    let count = info
        .lines()
        .filter(|line| line.split(':').next().map(str::trim) == Some("processor"))
        .count();
    (model, count)
}

/// The 1, 5 and 15 minute load averages, as `/proc/loadavg` has them.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "?".into())
}

/// The first line a command prints (stdout, else stderr), trimmed.
pub fn first_line(program: &str, args: &[&str]) -> String {
    match Command::new(program).args(args).output() {
        Ok(output) => {
            let text = if output.stdout.is_empty() {
                output.stderr
            } else {
                output.stdout
            };
            String::from_utf8_lossy(&text)
                .lines()
                .next()
                .unwrap_or("")
                .trim()
                .to_string()
        }
        Err(error) => format!("({program}: {error})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_cpu_time_grows_with_work() {
        let before = thread_cpu();
        let mut x = 0u64;
        let start = std::time::Instant::now();
        while start.elapsed() < Duration::from_millis(30) {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
        let used = thread_cpu() - before;
        // Busy for 30 ms of wall time: at least a few ms of CPU, even on a
        // loaded machine, and never more than the wall time plus a tick.
        assert!(used > Duration::from_millis(1), "{used:?}");
        assert!(used < Duration::from_millis(60), "{used:?}");
    }

    #[test]
    fn the_machine_is_described() {
        let (model, count) = cpu_model();
        assert!(!model.is_empty());
        assert!(count >= 1);
        assert_eq!(load_average().split(' ').count(), 3);
    }
}

// A binding written by `macro_rules!`, its parameter's type from the
// macro's caller: the parameter keeps the macro's hygiene.
use redis_script::redis_script;

macro_rules! bind_release {
    ($lock:ty) => {
        #[redis_script(file = "scripts/lock_release.lua", keys = 1)]
        fn release(lock: $lock, token: &str) -> bool;
    };
}

bind_release!(&str);

fn main() {
    let call = release("lock:a", "token");
    assert_eq!(call.script().name(), "release");
}

// Bindings grouped in an `impl` block by `#[redis_script::bindings]`:
// associated functions, each with a `<name>_script()` accessor, beside the
// impl's own items; module-level bindings keep their `name::SCRIPT`.
use redis_script::{redis_function, redis_script};

pub struct Lock;

#[redis_script::bindings]
impl Lock {
    /// Takes the lock for `ttl_ms`.
    #[redis_script(file = "scripts/lock_acquire.lua", keys = 1)]
    pub fn acquire(lock: &str, ttl_ms: u64, token: &str) -> Option<String>;

    #[redis_script(file = "scripts/lock_release.lua", keys = 1)]
    fn release(lock: &str, token: &str) -> bool;

    /// An ordinary associated item, left as written.
    pub const NAME: &'static str = "lock";

    pub fn owner_key(lock: &str) -> String {
        format!("{lock}:owner")
    }
}

#[redis_script(file = "scripts/lock_release.lua", keys = 1)]
fn release(lock: &str, token: &str) -> bool;

// A second impl block of the same type.
#[redis_script::bindings]
impl Lock {
    #[redis_script(file = "scripts/lock_extend.lua", keys = 1)]
    pub fn extend(lock: &str, ttl_ms: u64, token: &str) -> bool;
}

pub struct Stock;

// A function of a library, and a path to the attribute.
#[redis_script::bindings]
impl Stock {
    #[redis_function(library = "tests/lua/functions/stock.lua", keys = 1)]
    pub fn stock_take(stock: &str, item: &str) -> Option<i64>;

    #[redis_script::redis_script(file = "scripts/lock_release.lua", keys = 1)]
    pub fn release(lock: &str, token: &str) -> bool;
}

fn main() {
    let _call = Lock::acquire("lock", 1_000, "token");
    let _call = Lock::release("lock", "token");
    assert_eq!(Lock::acquire_script().name(), "acquire");
    assert_eq!(Lock::release_script().file(), "scripts/lock_release.lua");
    assert_eq!(Lock::NAME, "lock");
    assert_eq!(Lock::owner_key("a"), "a:owner");

    // Paths read as the calls do, not as the hidden modules are named.
    assert_eq!(
        Lock::acquire_script().binding_path(),
        concat!(module_path!(), "::Lock::acquire")
    );
    assert_eq!(
        release::SCRIPT.binding_path(),
        concat!(module_path!(), "::release")
    );

    // The module-level binding of the same file is unchanged, and distinct.
    assert_eq!(release::SCRIPT.name(), "release");
    assert!(!std::ptr::eq(Lock::release_script(), &release::SCRIPT));

    // Both are registered.
    let registered = |script: &'static redis_script::Script| {
        redis_script::registry::scripts().any(|listed| std::ptr::eq(listed, script))
    };
    assert!(registered(Lock::acquire_script()));
    assert!(registered(Lock::release_script()));
    assert!(registered(&release::SCRIPT));

    let _call = Lock::extend("lock", 1_000, "token");
    assert!(registered(Lock::extend_script()));

    let _call = Stock::stock_take("stock", "apple");
    let library = Stock::stock_take_script().library().expect("a function");
    assert_eq!(library.name(), "stock");
    let _call = Stock::release("lock", "token");
    assert!(registered(Stock::release_script()));
}

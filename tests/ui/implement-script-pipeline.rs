use redis_script::{Error, Invocation, ScriptPipeline};

// `ScriptPipeline` is sealed, so that methods can be added to it later.
struct MyPipeline;

impl ScriptPipeline for MyPipeline {
    fn evalsha_script<T>(&mut self, _call: &Invocation<T>) -> Result<&mut Self, Error> {
        Ok(self)
    }

    fn eval_script<T>(&mut self, _call: &Invocation<T>) -> Result<&mut Self, Error> {
        Ok(self)
    }
}

fn main() {}

// Each mistake in the attribute's arguments is reported at once.

#[redis_script::test(clusters)]
fn unknown_argument() {}

#[redis_script::test(cluster, replica)]
fn two_topologies() {}

#[redis_script::test(cluster(replicas = 5), timeout_secs = "30s", load_all = true)]
fn values_of_the_wrong_kind() {}

fn main() {}

fn main() {
    // `scripts!` binds every script of a folder; Cargo cannot see that a
    // file was added to it unless a build script asks it to watch the folder.
    println!("cargo:rerun-if-changed=scripts/autocomplete");
}

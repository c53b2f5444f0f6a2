//! `transports`: see the next commit.
fn main() {}

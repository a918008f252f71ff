return "\x41\u{48}\z ok"

"a\0b" x

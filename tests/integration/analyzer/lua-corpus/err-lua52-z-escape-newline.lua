return "\z
   not skipped in 5.1"

return ..

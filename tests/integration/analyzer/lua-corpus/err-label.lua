::continue::

# notes-demo exports no config versions

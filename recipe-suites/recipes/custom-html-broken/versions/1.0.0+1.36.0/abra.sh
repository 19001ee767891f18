# custom-html exports no config versions

// placeholder until the record format lands; delete me

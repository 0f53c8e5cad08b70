"""The imperative shell's own pieces that every room uses: the sink for what people see (:mod:`.terminal`), the
runner for how a command ends (:mod:`.runner`), output files put in place safely (:mod:`.outputs`), the progress bar."""

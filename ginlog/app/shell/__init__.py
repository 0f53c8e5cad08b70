"""The imperative shell's own pieces that every room uses: output files put in place safely, the progress bar."""

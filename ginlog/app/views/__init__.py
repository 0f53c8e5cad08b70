"""The match in words, tables and JSON (:mod:`.match`), the score sheet (:mod:`.sheet`) and the audit's report (:mod:`.render`)."""

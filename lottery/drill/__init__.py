"""The fault drill (issue 15, item 7): draws built alike, their fingerprints, and the harness that kills workers."""

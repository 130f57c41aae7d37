"""One module per game family; each exports ``ENGINES``, a list of objects of the TableGame shape."""

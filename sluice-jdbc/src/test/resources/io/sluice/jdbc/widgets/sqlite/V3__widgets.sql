-- A test module's first table.
CREATE TABLE widget (id INTEGER PRIMARY KEY);

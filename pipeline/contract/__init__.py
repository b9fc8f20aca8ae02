"""The data contract: the schema, the kinds of record, problems, identifiers, the data dictionary and the settings."""

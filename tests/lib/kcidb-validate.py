#!/usr/bin/python3
# kcidb-validate.py SCHEMA DOCUMENT: validate a KCIDB document against the
# schema with python3-jsonschema (Draft 7, formats checked); print each
# error, exit 1 when there is one.
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
v = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
for e in errors:
    print("%s: %s" % ("/".join(str(p) for p in e.absolute_path), e.message))
sys.exit(1 if errors else 0)

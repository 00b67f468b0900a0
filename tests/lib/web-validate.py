#!/usr/bin/python3
# Validate JSON documents against a JSON Schema (python3-jsonschema):
#   web-validate.py SCHEMA FILE...   prints one line per failure
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
bad = 0
for path in sys.argv[2:]:
    for e in validator.iter_errors(json.load(open(path))):
        bad += 1
        print("%s: %s: %s" % (path, "/".join(map(str, e.absolute_path)),
                              e.message[:200]))
sys.exit(1 if bad else 0)

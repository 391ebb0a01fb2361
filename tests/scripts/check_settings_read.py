"""Every setting a scenario may change is modelled: each field of the broker, producer and
consumer config tables (sim/scenario/scenario_config.cpp; a name may hold dots, as system
properties do) is read by some rule outside the table and the
declaration (sim/scenario/scenario.h), or the table says why it is not modelled (then only
upstream's default is accepted). A setting parsed and read nowhere would make a compare of two
values say "no figure differs", which reads as "no effect".
usage: check_settings_read.py SOURCE_DIR"""
import os
import re
import sys

TABLE = "sim/scenario/scenario_config.cpp"
DECLARED = "sim/scenario/scenario.h"
READERS = ["sim", "cli", "reports"]
# {"name", v5_only, &C::member, range[, "why not modelled" "..."]}
ENTRY = re.compile(r'\{"([\w.]+)",\s*(?:true|false),\s*&C::(\w+),\s*(?:\{\}|IntRange::[^}]*?\))\s*'
                   r'(,\s*")?', re.S)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    with open(os.path.join(root, TABLE), encoding="utf-8") as text:
        table = text.read()
    entries = ENTRY.findall(table)
    texts = []
    for top in READERS:
        for folder, _, files in os.walk(os.path.join(root, top)):
            for file in files:
                path = os.path.relpath(os.path.join(folder, file), root)
                if file.endswith((".h", ".cpp")) and path not in (TABLE, DECLARED):
                    with open(os.path.join(root, path), encoding="utf-8") as source:
                        texts.append(source.read())
    passed, failed = 0, 0
    for name, member, not_modelled in entries:
        word = re.compile(r"\b" + member + r"\b")
        if not_modelled or any(word.search(text) for text in texts):
            passed += 1
        else:
            failed += 1
            print(f"{TABLE}: {name} ({member}) is parsed but no rule reads it: model it, or say "
                  "in the table why it is not modelled")
    if not entries:
        failed += 1
        print(f"{TABLE}: no setting found (did the table's form change?)")
    print(f"settings read: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

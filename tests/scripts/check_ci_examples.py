#!/usr/bin/python3
"""The CI examples of docs/ci.md (examples/ci/*.yml) are valid YAML, and every command their
shell steps run exists: nssim's subcommands and flags as this build's nssim knows them (its
--help), anything else on the PATH or a shell builtin. Debian's python3 with python3-yaml.
usage: check_ci_examples.py NSSIM SOURCE_DIR"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

import yaml

BUILTINS = {"if", "then", "else", "fi", "cd", "export", "[", "test", "true", "false", "echo"}


def shell_lines(document):
    """Every shell line of a GitHub workflow (steps' run) or a GitLab file (before_script, script)."""
    lines = []
    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "run" and isinstance(value, str):
                    lines.extend(value.splitlines())
                elif key in ("script", "before_script", "after_script") and isinstance(value, list):
                    lines.extend(str(v) for v in value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(document)
    return [line.strip() for line in lines if line.strip() and not line.strip().startswith("#")]


def help_of(nssim, *args):
    return subprocess.run([nssim, *args, "--help"], capture_output=True, text=True).stdout


def check_nssim(nssim, words, where):
    errors = []
    top = help_of(nssim)
    commands = set(re.findall(r"^  (\w+)\s", top.split("Subcommands:")[-1], re.M))
    if len(words) < 2 or words[1] not in commands:
        return [f"{where}: nssim has no command {words[1:2]}"]
    flags = set(re.findall(r"(--[\w-]+)", help_of(nssim, words[1])))
    flags |= set(re.findall(r"(?:^|[ ,])(-\w)\b", help_of(nssim, words[1]), re.M))
    for word in words[2:]:
        flag = word.split("=")[0]
        if flag.startswith("-") and flag not in flags:
            errors.append(f"{where}: nssim {words[1]} has no flag {flag}")
    return errors


def main():
    nssim, source = sys.argv[1], sys.argv[2]
    files = sorted(glob.glob(os.path.join(source, "examples", "ci", "*.yml")))
    errors = [] if files else ["no examples/ci/*.yml"]
    checked = 0
    for path in files:
        try:
            with open(path) as handle:
                document = yaml.safe_load(handle)
        except yaml.YAMLError as error:
            errors.append(f"{os.path.basename(path)}: not valid YAML: {str(error).splitlines()[0]}")
            continue
        for line in shell_lines(document):
            for part in re.split(r"&&|;|\|\|", line):
                words = shlex.split(part, comments=True)
                if not words:
                    continue
                checked += 1
                where = f"{os.path.basename(path)}: {part.strip()}"
                if words[0] == "nssim":
                    errors += check_nssim(nssim, words, where)
                elif words[0] not in BUILTINS and shutil.which(words[0]) is None:
                    errors.append(f"{where}: no command {words[0]}")
    for error in errors:
        print(error)
    print(f"ci examples: {len(files)} files, {checked} commands, {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

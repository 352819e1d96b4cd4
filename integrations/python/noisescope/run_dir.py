"""The run directory the C++ trainer writes (docs/training.md), written from a Python loop.

Mirrors RunDirectory (core/train/run_directory.cpp: writeJson, appendEvent, truncateEventsAfter);
the C++ writer of the event lines is runEventJson (core/io/run_events.cpp). Keep them in step;
tests/python/test_run_dir.py and tests/python/test_event_schema.py hold the files to the
trainer's schema.

    RUN_DIR/config.json                    what the sampler knows of the run (written atomically)
    RUN_DIR/events.jsonl                   one JSON object per line, appended and flushed
    RUN_DIR/schedules/latest.schedule.json the current π (noisescope.schedule/1), on request

Every event line goes out with a single write(2) on a file opened with O_APPEND, so a reader that
tails the file (the workbench's Training tab) sees whole lines, and a crash leaves at most a torn
last line, which readers skip. Numbers that are not finite are written as null: JSON has no NaN.
"""

import json
import math
import os
import tempfile
import time

CONFIG_FORMAT = "noisescope.train-config/1"


def _finite(value):
    """The value with every non-finite float replaced by None (JSON null)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    if hasattr(value, "tolist"):  # a tensor or numpy scalar/array
        return _finite(value.tolist())
    return value


def write_atomically(path, text):
    """Writes `text` to a temporary file beside `path`, syncs it and renames it over `path`."""
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


class RunWriter:
    """Appends events to RUN_DIR/events.jsonl and writes RUN_DIR/config.json."""

    def __init__(self, path):
        self.path = os.fspath(path)
        try:
            os.makedirs(os.path.join(self.path, "schedules"), exist_ok=True)
        except OSError as error:
            raise OSError(f"{self.path}: cannot create the run directory ({error})") from error
        self.events_path = os.path.join(self.path, "events.jsonl")
        self.config_path = os.path.join(self.path, "config.json")
        self._fd = None

    # -- files -----------------------------------------------------------------------------------
    def write_config(self, config):
        doc = {"format": CONFIG_FORMAT}
        doc.update(config)
        write_atomically(self.config_path, json.dumps(_finite(doc), indent=2) + "\n")

    def begin(self, resume_step=None):
        """A new run empties events.jsonl; a resumed one drops the events after `resume_step`
        (what the interrupted run wrote after the state it resumes from), as the C++ trainer does."""
        self.close()
        if resume_step is None:
            write_atomically(self.events_path, "")
            return
        kept = []
        if os.path.exists(self.events_path):
            with open(self.events_path, "r", encoding="utf-8", errors="replace") as lines:
                for line in lines:
                    try:
                        event = json.loads(line)
                    except ValueError:
                        continue  # a line cut short by the crash
                    if not isinstance(event, dict):
                        continue
                    step = event.get("step")
                    if isinstance(step, int) and step > resume_step:
                        continue
                    kept.append(line if line.endswith("\n") else line + "\n")
        write_atomically(self.events_path, "".join(kept))

    def event(self, name, step, **fields):
        record = {"event": name, "step": int(step), "time": time.time()}
        record.update(fields)
        data = (json.dumps(_finite(record), separators=(",", ":")) + "\n").encode("utf-8")
        if self._fd is None:
            self._fd = os.open(self.events_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        written = os.write(self._fd, data)
        while written < len(data):  # a short write (signal, full disk): finish the line
            written += os.write(self._fd, data[written:])

    def close(self):
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

"""Writing files so that a reader never sees half of one: every file the project writes goes through here.

``atomic_path(path)`` hands out a temporary name beside ``path``; whatever is written there replaces ``path``
in one step (``os.replace``) once it is whole and flushed to disk, with the permissions of the file it replaces
(a new file gets those a plain ``open`` gives). A ``path`` that is a link has the file it leads to replaced (the
link stays); a device, a pipe or a stream's name (``/dev/null``, ``/dev/stdout``, ``/dev/fd/1``) is
written in place, never replaced by a file. A failed write (a full disk, a file size
limit, an exception, a kill) leaves ``path`` as it was, old content and all, and removes the temporary file
(``kill -9`` cannot: its leftover is named ``.tmp-<random><name>``, which ``contack train --resume`` clears in
its own run folder; the ``contack`` commands take SIGTERM as Ctrl-C, and clean up). ``open_atomic`` and ``write_text``/``write_bytes`` are the same for the common cases; they write
a path that is the process's own standard output or error (``--json /dev/stdout``) through it, after what was
printed, so that a redirect to a file keeps both in order.

``check_output(path)`` is what a command does with an output path before any work: it refuses, at once, a path
it could not write at the end (a folder, a name ending in ``/``, a name under a file, a folder it may not write
in or make, a name longer than the file system takes, a link into a folder that does not exist). It makes
nothing: a missing folder is made when the file is written, so a command refused or interrupted before then
leaves no empty folder behind.

Standard library only: the rules layer imports it.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from contextlib import contextmanager
from typing import IO, Any, Iterator

TEMPORARY_PREFIX = ".tmp-"
"""The names ``atomic_path`` writes under before the replace (what a kill at that moment leaves behind)."""
RANDOM_CHARS = 8  # what ``tempfile.mkstemp`` puts between its prefix and suffix

__all__ = ["OutputPathError", "TEMPORARY_PREFIX", "atomic_path", "check_output", "flush_tree", "fsync_directory",
           "open_atomic", "write_bytes", "write_text", "written_in_place"]


class atomic_path:
    """``with atomic_path(path) as tmp:`` write ``tmp``; on success it is flushed to disk and replaces ``path``
    in one step, so ``path`` holds the old content or the new, whole, even across a kill or a power loss. On
    an exception the temporary file is removed and ``path`` is untouched. A missing folder is made."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self.tmp: str | None = None

    def __enter__(self) -> str:
        if not self.path:  # (abspath would make it the current folder, and the rename would fail at the end)
            raise FileNotFoundError(errno.ENOENT, "the path is empty; name a file", self.path)
        if self.path.endswith((os.sep, os.altsep or os.sep)) or os.path.basename(self.path) in (".", ".."):
            raise IsADirectoryError(errno.EISDIR, "the path names a folder; name a file in it", self.path)
        if written_in_place(self.path):
            return self.path  # a device, a pipe, ``/dev/stdout``: written as given, never replaced by a file
        if os.path.islink(self.path):
            # A link is followed: the file it leads to is replaced, and the link stays a link.
            self.path = os.path.realpath(self.path)
            if not os.path.isdir(os.path.dirname(self.path)):
                raise FileNotFoundError(errno.ENOENT, "the link leads into a folder that does not exist", self.path)
        if os.path.isdir(self.path):  # say so now, naming it: the rename at the end would name the temporary file
            raise IsADirectoryError(errno.EISDIR, "a folder is there, not a file", self.path)
        directory = os.path.dirname(os.path.abspath(self.path))
        blocker = _file_in_the_way(directory)
        if blocker is not None:  # (makedirs would say only "File exists")
            raise NotADirectoryError(errno.ENOTDIR, f"{self.path} lies under a file, where no folder can be made",
                                     blocker)
        os.makedirs(directory, exist_ok=True)
        suffix = _fitting_tail(os.path.basename(self.path), _name_max(directory) - len(TEMPORARY_PREFIX) - RANDOM_CHARS)
        fd, self.tmp = tempfile.mkstemp(dir=directory, prefix=TEMPORARY_PREFIX, suffix=suffix)
        os.close(fd)
        return self.tmp

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if self.tmp is None:
            return  # written in place
        if exc_type is None:
            try:
                # mkstemp makes the file private (0600); give it the mode a plain open() would have: the
                # replaced file's own (a private file stays private), else the default for a new file
                os.chmod(self.tmp, _mode_for(self.path))
                with open(self.tmp, "rb") as f:
                    os.fsync(f.fileno())
                os.replace(self.tmp, self.path)
            except BaseException:
                _remove(self.tmp)
                raise
            fsync_directory(os.path.dirname(os.path.abspath(self.path)))
        else:
            _remove(self.tmp)


def _mode_for(path: str) -> int:
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:  # no file there yet
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@contextmanager
def open_atomic(path: str | os.PathLike[str], mode: str = "w", encoding: str | None = "utf-8",
                newline: str | None = None) -> Iterator[IO[Any]]:
    """``with open_atomic(path) as f:`` as ``open(path, mode)``, but ``path`` is replaced only when the block
    ends without an exception (``atomic_path``). ``mode`` is ``"w"`` or ``"wb"``."""
    if mode not in ("w", "wb"):
        raise ValueError(f"open_atomic writes a whole file: mode 'w' or 'wb'; got {mode!r}")
    fd = _own_stream(os.fspath(path))
    if fd is not None:
        # ``--json /dev/stdout`` with standard output sent to a file: opening the path anew would truncate that
        # file (losing what was printed) and write from its start, over which the next print then lands. A
        # duplicate of the descriptor shares its offset: the bytes follow what was printed, in order.
        for stream in (sys.stdout, sys.stderr):
            try:
                if stream is not None:  # None where the descriptor was closed at start
                    stream.flush()
            except (OSError, ValueError):  # a pipe closed at the other end, a closed stream: not this target
                pass
        with _open(os.dup(fd), mode, encoding, newline) as f:
            yield f
        return
    with atomic_path(path) as tmp, _open(tmp, mode, encoding, newline) as f:
        yield f


def _open(target: str | int, mode: str, encoding: str | None, newline: str | None) -> IO[Any]:
    """``open`` of a path or a descriptor (closed with the file), in ``open_atomic``'s modes."""
    if mode == "wb":
        return open(target, "wb")
    return open(target, "w", encoding=encoding, newline=newline)


def write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``text`` atomically."""
    with open_atomic(path, "w", encoding=encoding, newline="") as f:
        f.write(text)


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically."""
    with open_atomic(path, "wb") as f:
        f.write(data)


class OutputPathError(ValueError):
    """An output path that cannot be written: what is wrong with it."""


def check_named(path: str, endings: tuple[str, ...]) -> None:
    """``OutputPathError`` if the file ``path`` names is one of ``endings`` alone (``.json``): a hidden file, where a
    name before the ending was meant."""
    if os.path.basename(path).lower() in endings:
        named = os.path.join(os.path.dirname(path), "out" + os.path.basename(path))
        raise OutputPathError(f"{path} names a file before its ending, e.g. {named}")


def check_output(path: str | os.PathLike[str], suffixes: tuple[str, ...] = ()) -> str:
    """Make sure a file can be written at ``path`` at the end of the work: a path that is a folder, names one
    (ends in ``/``), lies under a file, is in a folder this process may not write in (or, missing, may not
    make), has a name longer than the file system takes, or is a link into a folder that does not exist raises
    ``OutputPathError`` saying so. ``suffixes``: the endings allowed for a file (e.g. ``(".gif", ".png")``; a
    device or a pipe, ``/dev/stdout``, needs none). Returns the path. Nothing is made: a missing folder is made
    by the write (``atomic_path``)."""
    path = os.fspath(path)
    if not path:
        raise OutputPathError("the output path is empty; name a file")
    # the example of a file in it keeps the ending given (pics.png/ suggests pics.png/out.png)
    example = os.path.join(path, "out" + next((x for x in suffixes if path.lower().endswith(x)), (suffixes or ("",))[0]))
    if os.path.isdir(path):  # said before the ending: a folder of results named `out` is no file of any ending
        raise OutputPathError(f"{path} is a folder; name a file (in it, e.g. {example})")
    if path.endswith((os.sep, os.altsep or os.sep)) or os.path.basename(path) in (".", ".."):
        # (abspath would drop the ending, and the name with it: the write would fail after all the work)
        raise OutputPathError(f"{path} names a folder; name a file (in it, e.g. {example})")
    if suffixes and not path.lower().endswith(suffixes) and not written_in_place(path):  # /dev/stdout has no ending
        raise OutputPathError(f"{path!r} must end in {' or '.join(suffixes)}")
    check_named(path, suffixes)
    parts = path.split(os.sep)
    for i, part in enumerate(parts):
        # abspath resolves "missing/.." away, where the system needs "missing" to be there
        if part == ".." and not os.path.isdir(os.sep.join(parts[:i]) or "."):
            raise OutputPathError(f"{path} goes into {os.sep.join(parts[:i])}, which is not a folder, and back "
                                  "out with ..; name the file without it")
    if written_in_place(path) and os.path.exists(path):
        # A device or a pipe (/dev/null, /dev/stdout) is written in place: it must be writable, not its folder
        # (/dev is not, for anyone but root).
        if not os.access(path, os.W_OK):
            raise OutputPathError(f"{path} cannot be written: permission denied")
        return path
    if os.path.dirname(os.path.abspath(path)) in ("/dev", "/proc"):
        # a new name there would be a plain file among the devices (as root, who may write there): a slip
        raise OutputPathError(f"{path} does not exist: in {os.path.dirname(os.path.abspath(path))} only a device "
                              "or a stream that is there can be written (/dev/stdout, /dev/null)")
    blocker = _file_in_the_way(os.path.dirname(os.path.abspath(path)))
    if blocker is not None:
        raise OutputPathError(f"{path} lies under a file ({blocker}), where no folder can be made")
    folder = os.path.dirname(os.path.abspath(path))
    written = os.path.realpath(path) if os.path.islink(path) else path  # a link: the file it leads to is replaced
    name, most = os.path.basename(written), _name_max(_nearest_existing(os.path.dirname(os.path.abspath(written))))
    if len(os.fsencode(name)) > most:
        raise OutputPathError(f"the file name {name[:40]}... is {len(os.fsencode(name))} bytes long; this folder "
                              f"allows names of at most {most}")
    _check_writable(folder)
    if os.path.islink(path) and not os.path.isdir(os.path.dirname(os.path.realpath(path))):
        raise OutputPathError(f"{path} is a link into a folder that does not exist ({os.path.realpath(path)})")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise OutputPathError(f"{path} cannot be replaced: it is read-only")
    return path


def _check_writable(folder: str) -> None:
    """Raise ``OutputPathError`` unless a file can be made in ``folder``: it, or (missing) the nearest folder
    above it that exists, where it would be made, lets this process write in it, and each missing folder's name
    is one that can be made there (not a link that leads nowhere, not longer than the file system takes). Makes
    nothing."""
    target = os.path.abspath(folder)
    here = _nearest_existing(target)
    missing = os.path.relpath(target, here).split(os.sep) if here != target else []
    parent, most = here, _name_max(here)
    for name in missing:
        place = os.path.join(parent, name)
        if os.path.islink(place):  # there, but leading nowhere: no folder can be made in its name
            raise OutputPathError(f"cannot make the folder {folder}: {place} is a link to "
                                  f"{os.readlink(place)}, which does not exist")
        if len(os.fsencode(name)) > most:
            raise OutputPathError(f"cannot make the folder {folder}: the name {name[:40]}... is "
                                  f"{len(os.fsencode(name))} bytes long; this folder allows names of at most {most}")
        parent = place
    if os.access(here, os.W_OK | os.X_OK):
        return
    if not missing:
        raise OutputPathError(f"cannot write in the folder {folder}: permission denied")
    raise OutputPathError(f"cannot make the folder {folder}: permission denied (in {here})")


def _nearest_existing(folder: str) -> str:
    """``folder``, or its nearest ancestor that exists."""
    while not os.path.exists(folder) and os.path.dirname(folder) != folder:
        folder = os.path.dirname(folder)
    return folder


def _name_max(folder: str) -> int:
    """The longest file name, in bytes, that ``folder``'s file system takes (255 where it does not say)."""
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):
        return 255


def _fitting_tail(name: str, room: int) -> str:
    """``name``, or as much of its end as fits in ``room`` bytes: a temporary name keeps the file's ending, which
    says its format to the writers that go by it (matplotlib's ``savefig``)."""
    while name and len(os.fsencode(name)) > max(room, 0):
        name = name[1:]
    return name


def check_folder(folder: str | os.PathLike[str]) -> str:
    """Make ``folder`` (and its parents) if missing, or raise ``OutputPathError`` saying why it cannot be
    written in: a file is in the way, or permission is denied. Returns the folder."""
    folder = os.fspath(folder)
    blocker = _file_in_the_way(folder)
    if blocker is not None:
        if blocker == os.path.abspath(folder):
            raise OutputPathError(f"{folder} is a file, not a folder: name a folder (a new one is made)")
        raise OutputPathError(f"{folder} lies under a file ({blocker}), where no folder can be made")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as err:
        raise OutputPathError(f"cannot make the folder {folder}: {err.strerror or err}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputPathError(f"cannot write in the folder {folder}: permission denied")
    return folder


def _file_in_the_way(folder: str) -> str | None:
    """The nearest existing ancestor-or-self of ``folder`` when it is not a folder (so no folder can be made)."""
    here = _nearest_existing(os.path.abspath(folder))
    return None if not os.path.exists(here) or os.path.isdir(here) else here


def _own_stream(path: str) -> int | None:
    """1 or 2 when ``path``, a name under ``/dev`` or ``/proc`` or a device or pipe (``/dev/stdout``,
    ``/dev/fd/2``), leads to this process's standard output or error, else None. (A plain file name does not:
    ``--json out.txt > out.txt`` replaces the file, as it would any other.)"""
    if not written_in_place(path):
        return None
    try:
        target = os.stat(path)
    except OSError:
        return None
    for fd in (1, 2):
        try:
            mine = os.fstat(fd)
        except OSError:
            continue
        if (mine.st_dev, mine.st_ino) == (target.st_dev, target.st_ino):
            return fd
    return None


def written_in_place(path: str) -> bool:
    """Whether ``path`` is to be written as it is rather than replaced: something that exists and is neither a
    file nor a folder (a device, a pipe), or a name that is or leads to a stream's (``/dev/stdout``,
    ``/dev/fd/1``, a name under ``/proc``, a new name in ``/dev`` itself, or a link to one of them): those lead to
    whatever standard output is, a terminal, a pipe or a file the shell opened, which a replace would cut off. A
    file in a real folder under ``/dev`` (``/dev/shm``, a memory file system) is replaced as any other."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = None
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        return True
    return _leads_to_a_stream(os.path.abspath(path))


def _leads_to_a_stream(path: str, hops: int = 40) -> bool:
    """Whether ``path`` (absolute), or where its links lead, one link at a time, is a name under ``/proc``, in
    ``/dev`` itself or under ``/dev/fd``. Not ``os.path.realpath``: it would follow ``/proc/self/fd/1`` on to
    the file standard output was sent to, and take it for a plain file."""
    for _ in range(hops):
        path = "/" + path.lstrip("/")  # "//dev/stdout" is /dev/stdout
        if path.startswith(("/proc/", "/dev/fd/")) or os.path.dirname(path) == "/dev":
            return True
        parts = path.split("/")
        for end in range(2, len(parts) + 1):
            here = "/".join(parts[:end])
            if os.path.islink(here):
                path = os.path.normpath(os.path.join(os.path.dirname(here), os.readlink(here), *parts[end:]))
                break
        else:
            return False  # no link left on the way: a plain name
    return False  # a loop of links: opening it fails whichever way it is written


def flush_tree(folder: str) -> None:
    """Every file under ``folder``, and the folders themselves, to disk: a folder written whole under a temporary
    name and then renamed into place (an RLlib checkpoint) is then whole after a power loss too."""
    for here, _, files in os.walk(folder):
        for name in files:
            fd = os.open(os.path.join(here, name), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        fsync_directory(here)


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def fsync_directory(directory: str) -> None:
    """Make a replace or rename in ``directory`` durable (where the platform lets a directory be opened: not on
    Windows)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)

"""The Ray backend of ``warbook sim``: a study's seed ranges as Ray tasks, on a cluster or a local instance.

``ray_runner(address)`` is the ``study.Runner`` that ``iter_study`` is given for ``--backend ray``:
``iter_ray(tasks, jobs, address)`` connects to the cluster at ``address`` (``ray://…`` or an
address ``ray start`` printed; ``None`` starts a local instance with ``jobs`` CPUs), runs each
(arm, start, stop) task as a remote ``study.play_seeds`` and yields records as tasks finish.  A Ray
worker process lives across tasks, so it compiles an arm's rules once (``study.arm_scenario``), as
a local worker does; the seed ranges are the same as for local workers, so the answer is too.

Ray is an optional extra (``pip install warbook[ray]``): it is large and needed only past one machine.
Every machine of the cluster needs warbook installed, at the same version.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .study_games import GameRecord, Runner, Task, play_seeds


class RayMissing(ImportError):
    """Ray is not installed (the ``ray`` extra)."""


def ray_module():
    """The ``ray`` package, or ``RayMissing`` saying how to get it."""
    try:
        import ray
    except ImportError as exc:
        raise RayMissing("the ray backend needs Ray: pip install 'warbook[ray]'") from exc
    return ray


def ray_runner(address: str | None = None) -> Runner:
    """Play a study's tasks on the Ray cluster at ``address`` (``None``: a local instance)."""
    return lambda tasks, jobs: iter_ray(tasks, jobs, address)


def iter_ray(tasks: Sequence[Task], jobs: int, address: str | None = None) -> Iterator[GameRecord]:
    """Run the tasks on Ray; yield each task's records as it finishes.  Closing the iterator cancels
    the tasks left; a local instance this call started is shut down."""
    ray = ray_module()
    started = not ray.is_initialized()
    if started:
        options = {"address": address} if address else {"num_cpus": max(1, jobs)}
        ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False, **options)
    remote = ray.remote(play_seeds)
    pending = [remote.remote(arm, start, stop) for arm, start, stop in tasks]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(done[0])
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()

"""The GitHub workflow of the nightly rebuild: on a schedule and on demand, every action pinned by commit
SHA, the virtual environment cached, `make nightly` as the one step that builds, and a deploy that runs
only after a successful build (so a failed night leaves the last good site deployed)."""

from __future__ import annotations

import re

import yaml
from conftest import PROJECT_ROOT

WORKFLOW = PROJECT_ROOT / ".github" / "workflows" / "nightly.yml"


def load() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def test_runs_on_a_schedule_and_on_demand():
    triggers = load()[True]  # YAML 1.1 reads the key "on" as true
    assert triggers["schedule"][0]["cron"] and "workflow_dispatch" in triggers


def test_every_action_is_pinned_by_a_full_commit_sha():
    uses = [step["uses"] for job in load()["jobs"].values() for step in job["steps"] if "uses" in step]
    assert uses and all(re.fullmatch(r"[\w-]+/[\w-]+@[0-9a-f]{40}", u) for u in uses), uses
    lines = [line for line in WORKFLOW.read_text(encoding="utf-8").splitlines() if "uses:" in line]
    assert all(re.search(r"# v\d+\.\d+\.\d+$", line) for line in lines)  # the version, for humans


def test_builds_with_make_nightly_caches_the_venv_and_deploys_only_after_success():
    jobs = load()["jobs"]
    steps = jobs["build"]["steps"]
    runs = [s["run"] for s in steps if "run" in s]
    # the public address and the live site's /dados/ as the previous release (make nightly turns exit 3, a
    # source kept at its last good copy, into a warning: the site still deploys; any other failure does not)
    assert runs[0] == ('make nightly OUT=output SITE_URL="${{ steps.pages.outputs.base_url }}" '
                       'ANTERIOR="${{ steps.pages.outputs.base_url }}/dados/" '
                       'VERSOES_URL="${{ github.server_url }}/${{ github.repository }}/releases" '
                       'CONTATO="${{ vars.CONTATO_EMAIL && format(\'mailto:{0}\', vars.CONTATO_EMAIL) || '
                       'format(\'{0}/{1}\', github.server_url, github.repository) }}"')
    # the contact: the repository variable CONTATO_EMAIL as a mailto: (the catalogues' e-mail), else the
    # repository's address (the User-Agent's only; the job's summary then says the e-mail is missing)
    caches = [s["with"]["path"] for s in steps if "actions/cache@" in s.get("uses", "")]
    assert ".venv" in caches and ".cache/nightly" in caches
    upload = next(i for i, s in enumerate(steps) if "upload-pages-artifact" in s.get("uses", ""))
    assert upload > next(i for i, s in enumerate(steps) if "run" in s)
    assert jobs["deploy"]["needs"] == "build"
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert load()["permissions"] == {"contents": "read"}
    assert jobs["build"]["permissions"] == {"contents": "write"}  # the release of each night's package


def test_each_release_is_kept_as_a_github_release_never_replaced():
    steps = load()["jobs"]["build"]["steps"]
    keep = next(s["run"] for s in steps if s.get("name") == "Keep the release")
    assert 'gh release view "$tag"' in keep and "não substituída" in keep  # an existing release stays
    # named as the version (x-versao), with every file the build wrote for it (pipeline/publish/hosting.py)
    assert "x-versao" in keep and 'gh release create "$tag" output-release/*' in keep and "SHA256SUMS" in keep
    release = next(i for i, s in enumerate(steps) if s.get("name") == "Keep the release")
    upload = next(i for i, s in enumerate(steps) if "upload-pages-artifact" in s.get("uses", ""))
    assert release < upload  # the site links the release's files: made before the site is deployed

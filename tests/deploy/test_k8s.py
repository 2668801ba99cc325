"""Kubernetes (issue #32): the manifests of ``deploy/k8s/`` are valid against the
Kubernetes API schemas, offline (``kubernetes-validate`` ships them: no download), and
keep what a room needs: cookie affinity (a session lives in one process), health
probes, measured resources, the malloc settings of the Dockerfile, an autoscaler on CPU,
``/_stcore/metrics`` closed, a non-root read-only container."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy/k8s"
KUBERNETES = "1.37"  # the newest schemas kubernetes-validate 1.37.0 ships
NGINX = "nginx.ingress.kubernetes.io/"


def documents() -> list[dict]:
    """Every resource of the kustomization, in its order."""
    listed = yaml.safe_load((K8S / "kustomization.yaml").read_text())["resources"]
    return [d for name in listed for d in yaml.safe_load_all((K8S / name).read_text()) if d]


def one(kind: str, name: str | None = None) -> dict:
    found = [d for d in documents() if d["kind"] == kind and name in (None, d["metadata"]["name"])]
    assert len(found) == 1, (kind, name, len(found))
    return found[0]


def container() -> dict:
    return one("Deployment")["spec"]["template"]["spec"]["containers"][0]


def validate(resource: dict) -> None:
    kubernetes_validate.validate(resource, KUBERNETES, strict=True)


def test_the_kustomization_lists_every_manifest():
    listed = yaml.safe_load((K8S / "kustomization.yaml").read_text())["resources"]
    on_disk = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert sorted(listed) == sorted(on_disk)


@pytest.mark.parametrize(
    "resource", documents(), ids=lambda d: f"{d['kind']}/{d['metadata']['name']}"
)
def test_every_manifest_is_valid_against_the_kubernetes_schemas(resource):
    validate(resource)  # raises ValidationError; strict: no unknown field either


# Broken copies the validator must reject: a misspelt field, a wrong type, a missing
# required field.
def _limit_misspelt(d):
    d["spec"]["template"]["spec"]["containers"][0]["resources"]["limit"] = {"cpu": "1"}


def _port_as_words(d):
    d["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"] = "eighty"


def _no_selector(d):
    del d["spec"]["selector"]


@pytest.mark.parametrize("plant", [_limit_misspelt, _port_as_words, _no_selector])
def test_the_validator_rejects_a_broken_deployment(plant):
    broken = copy.deepcopy(one("Deployment"))
    plant(broken)
    with pytest.raises(kubernetes_validate.ValidationError):
        validate(broken)


def test_the_validator_rejects_an_ingress_path_without_its_type():
    broken = copy.deepcopy(one("Ingress", "posenc"))
    del broken["spec"]["rules"][0]["http"]["paths"][0]["pathType"]
    with pytest.raises(kubernetes_validate.ValidationError):
        validate(broken)


def test_a_browser_stays_on_one_pod_by_a_cookie():
    notes = one("Ingress", "posenc")["metadata"]["annotations"]
    assert notes[NGINX + "affinity"] == "cookie"
    assert notes[NGINX + "affinity-mode"] == "persistent"  # not moved when pods are added
    assert notes[NGINX + "session-cookie-name"] == "posenc_route"  # as deploy/nginx.conf


def test_the_websocket_is_not_closed_after_a_minute():
    notes = one("Ingress", "posenc")["metadata"]["annotations"]
    for key in ("proxy-read-timeout", "proxy-send-timeout"):
        assert int(notes[NGINX + key]) >= 3600, key


def test_uploads_of_20_mb_pass_the_ingress():
    size = one("Ingress", "posenc")["metadata"]["annotations"][NGINX + "proxy-body-size"]
    assert int(re.fullmatch(r"(\d+)m", size)[1]) > 20


def test_no_snippet_annotations():
    # ingress-nginx disables them by default (since v1.9): a manifest needing one breaks.
    for ingress in (d for d in documents() if d["kind"] == "Ingress"):
        assert not any("snippet" in key for key in ingress["metadata"].get("annotations", {}))


def test_metrics_are_closed_to_every_address_and_only_they():
    closed = one("Ingress", "posenc-metrics-closed")
    paths = closed["spec"]["rules"][0]["http"]["paths"]
    assert [(p["path"], p["pathType"]) for p in paths] == [("/_stcore/metrics", "Exact")]
    denied = closed["metadata"]["annotations"][NGINX + "denylist-source-range"].split(",")
    assert set(denied) == {"0.0.0.0/0", "::/0"}
    app = one("Ingress", "posenc")
    assert NGINX + "denylist-source-range" not in app["metadata"]["annotations"]
    hosts = {r["host"] for d in (closed, app) for r in d["spec"]["rules"]}
    assert len(hosts) == 1  # the same site: otherwise the rule closes nothing


def test_probes_ask_streamlit_health():
    app = container()
    for probe in ("readinessProbe", "livenessProbe"):
        get = app[probe]["httpGet"]
        assert get["path"] == "/_stcore/health", probe
        assert get["port"] in ("http", 8501), probe
    assert app["ports"][0]["containerPort"] == 8501


def test_the_malloc_settings_of_the_dockerfile():
    env = {e["name"]: e["value"] for e in container()["env"]}
    assert env["MALLOC_ARENA_MAX"] == "2"
    assert env["MALLOC_MMAP_THRESHOLD_"] == "1048576"


def _bytes(quantity: str) -> int:
    number, unit = re.fullmatch(r"(\d+)(Mi|Gi)", quantity).groups()
    return int(number) * 2 ** (20 if unit == "Mi" else 30)


def _cores(quantity: str) -> float:
    return int(quantity[:-1]) / 1000 if quantity.endswith("m") else float(quantity)


def test_resources_cover_the_measured_memory_and_cpu():
    # bench/README.md, "Server load without browsers": 456 MB peak RSS with 100 sessions
    # exploring; 0.36-0.44 cores for 100 following the story, 0.79 for 100 exploring.
    res = container()["resources"]
    assert _bytes(res["requests"]["memory"]) >= 456e6
    assert _bytes(res["limits"]["memory"]) > _bytes(res["requests"]["memory"])
    assert 0.44 <= _cores(res["requests"]["cpu"]) <= _cores(res["limits"]["cpu"])
    deployment = (K8S / "deployment.yaml").read_text()
    for measured in ("0.36-0.44 cores", "456 MB", "170 MB"):  # the numbers are cited
        assert measured in deployment, measured


def test_the_autoscaler_scales_the_deployment_on_cpu():
    hpa = one("HorizontalPodAutoscaler")
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1", "kind": "Deployment", "name": one("Deployment")["metadata"]["name"]
    }  # fmt: skip
    (metric,) = hpa["spec"]["metrics"]
    assert metric["resource"]["name"] == "cpu"
    assert 50 <= metric["resource"]["target"]["averageUtilization"] <= 80
    low, high = hpa["spec"]["minReplicas"], hpa["spec"]["maxReplicas"]
    assert 2 <= low < high


def test_the_container_runs_as_uid_1000_on_a_read_only_root():
    pod = one("Deployment")["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] == 1000  # the Dockerfile's user
    own = container()["securityContext"]
    assert own["readOnlyRootFilesystem"] is True
    assert own["allowPrivilegeEscalation"] is False
    assert own["capabilities"]["drop"] == ["ALL"]
    # Starlette spools uploads above 1 MB to /tmp: it must be writable.
    mounts = {m["mountPath"]: m["name"] for m in container()["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert "emptyDir" in volumes[mounts["/tmp"]]


def test_the_service_and_ingress_reach_the_pods():
    service = one("Service")
    labels = one("Deployment")["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= labels.items()
    (port,) = service["spec"]["ports"]
    assert port["targetPort"] in ("http", 8501)
    for ingress in (d for d in documents() if d["kind"] == "Ingress"):
        for path in ingress["spec"]["rules"][0]["http"]["paths"]:
            backend = path["backend"]["service"]
            assert backend["name"] == service["metadata"]["name"]
            assert backend["port"].get("name") == port["name"]

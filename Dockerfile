# PosEnc Explorer for Hugging Face Spaces (Docker SDK: `sdk: docker`, `app_port: 8501`)
# or any Docker host. Runtime dependencies only (requirements.txt); runs as uid 1000.
# The Debian release is pinned (bookworm, the release CI's Chromium comes from); the tag
# still moves with Python 3.12 patch releases. Pin the digest where you build:
# `docker pull python:3.12-slim-bookworm` and replace the tag by the `RepoDigests`
# entry of `docker image inspect`. It is not pinned here because no image registry is
# reachable where this file is written and tested, and an unverified digest is worse
# than a tag.
FROM python:3.12-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOME=/home/user \
    STREAMLIT_BROWSER_GATHER_USAGE_STATS=false \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=1048576

# glibc malloc (issue #24, bench/README.md): at most 2 arenas instead of 8 per core, and
# arrays of 1 MiB or more always mmapped, so freed ones go back to the system. After 24
# largest-setting page loads the idle server held 383 MB RSS by default, 258 MB with
# the arena cap, 193 MB with both (caches: ~30 MB; a fresh server: 162 MB).

# Spaces run the container as uid 1000; give that user a home for Streamlit's files.
RUN useradd --create-home --uid 1000 user

WORKDIR /app
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt

# The code stays owned by root: the app user can read it, not change it.
COPY . .

USER 1000
EXPOSE 8501

# python:*-slim has no curl; Python's urllib is enough for the health probe.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4)"]

CMD ["streamlit", "run", "app.py", "--server.address=0.0.0.0", "--server.port=8501"]

# woodpecker: one image for the HTTP service and the stream workers (`docker compose` builds it).
#
#   docker build -t woodpecker:local .
#   docker run -p 8080:8080 woodpecker:local                          # woodpecker serve
#   docker run woodpecker:local worker --agents verification          # any other command
#
# Stage 1 builds a virtual environment with the CPU build of torch (from the CPU index: the default
# wheel pulls a multi-GB CUDA build) and woodpecker's runtime dependencies only, no test tools.
# Stage 2 copies that environment into a slim image and runs it as an unprivileged user.

FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/woodpecker
ENV PATH=/opt/woodpecker/bin:$PATH
# torch first and pinned, from the CPU index, so nothing later pulls a CUDA build.
RUN pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu
WORKDIR /src
COPY pyproject.toml README.md ./
COPY workers ./workers
COPY schemas ./schemas
COPY config ./config
# A regular (non-editable) install of the runtime dependencies only: no test tools.
RUN pip install . && pip uninstall -y pip setuptools wheel || true

FROM python:3.11-slim AS runtime
RUN groupadd --system --gid 10001 woodpecker \
    && useradd --system --uid 10001 --gid woodpecker --home-dir /home/woodpecker --create-home woodpecker
COPY --from=build /opt/woodpecker /opt/woodpecker
ENV PATH=/opt/woodpecker/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    HF_HUB_OFFLINE=1 \
    OMP_NUM_THREADS=1 \
    WOODPECKER_SERVER__HOST=0.0.0.0 \
    WOODPECKER_SERVER__PORT=8080
USER 10001:10001
WORKDIR /home/woodpecker
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=2).status != 200)"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["woodpecker"]
CMD ["serve"]

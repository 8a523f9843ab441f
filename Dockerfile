# The server image for compose.yaml: gamenight with its PostgreSQL and Redis drivers.
FROM python:3.11-slim
WORKDIR /src
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install --no-cache-dir '.[postgres,redis]' && rm -rf /src
# Without --database-url the tables go to /data/gamenight.db: mount a volume there to keep them.
WORKDIR /data
EXPOSE 8000
CMD ["gamenight", "serve", "--host", "0.0.0.0", "--port", "8000"]

# Build a static, CGO-free binary (modernc.org/sqlite is pure Go).
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/cribbage ./cmd/cribbage
# The volume's mount point, owned by the image's non-root user (65532).
RUN mkdir -p /out/data

# A small final image: CA certificates for TLS to Discord, a non-root user,
# and the database on a volume.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/cribbage /usr/local/bin/cribbage
COPY --from=build --chown=65532:65532 /out/data /data
ENV DATABASE_PATH=/data/cribbage.db
VOLUME ["/data"]
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/cribbage"]
CMD ["serve"]

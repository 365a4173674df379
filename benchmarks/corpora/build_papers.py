"""Check-set corpus "papers": sixteen classic two-column systems research papers from the
public repository papers-we-love/papers-we-love, copied unchanged (the PDFs stay with their
authors and are not committed here; each copy is checked against its SHA-256):

    datastores/            Bigtable, Dynamo, Flat Datacenter Storage, Megastore, RADOS,
                           Spanner, TAO, the Google File System
    distributed_systems/   Chain replication, Dapper, MapReduce, Raft, Mesos, Percolator,
                           Chubby, ZooKeeper

    python benchmarks/corpora/build_papers.py [--source DIR] [--out DIR]

`--source` is a clone of the repository: a bare git directory (read with `git show HEAD:…`)
or a checkout.
"""

from __future__ import annotations

from pathlib import Path

from _writers import Snapshot, build_main, read_checked

SOURCE = Snapshot(
    "--source", "CITEWISE_SOURCE_PAPERS", Path("/work/.mirror/papers-we-love+papers-we-love/repo")
)
PAPERS = {
    "datastores/bigtable-a-distributed-storage-system-for-structured-data.pdf":
        "9126cf3b930fd7be2de6248f82565c9b970482eb063bdc30be8c1b29c86b2167",
    "datastores/dynamo-amazons-highly-available-key-value-store.pdf":
        "9fc14179b35337ccbe7a9db270cf04fb83f0989ea9e50bf9cf1fd70012b5ff60",
    "datastores/flat-datacenter-storage.pdf":
        "ff0bb8032d0e90e7b39865d3791ef275dcfc62b215174887dfab7c8b7b3c2acc",
    "datastores/megastore-providing-scalable-highly-available-storage-for-interactive-services.pdf":
        "d0c8cb663e5ff5fe83a2d67d28f84163e586477ebd9dd39e549cc7f4e5bd6d98",
    "datastores/rados-a-scalable-reliable-storage-service-for-petabyte-scale-storage-clusters.pdf":
        "0d2b78afcc5d8d3598f14190aee2fd1ff0808e6ea3d93c44b0b3d00a19573449",
    "datastores/spanner-google's-globally-distributed-database.pdf":
        "8cf30f4b379da5873dc9f7d82595d5cdc402083091cfff0e7beb00fd84473ea5",
    "datastores/tao-facebook-distributed-datastore.pdf":
        "8ae968240ce312935a900584fa169bcf03fdd348b8309df1f5ed791bbf9fca2d",
    "datastores/the-google-file-system.pdf":
        "108ced8f084131ae6241b2c43c0b8f8bee01a8427c2527cbc204c87f1fdfce33",
    "distributed_systems/chain-replication-for-supporting-high-throughput-and-availability.pdf":
        "1a16a4c0f4ea53979d77ccfa54d18f98874d7a4ea602e061fd2d6e32e56b60ac",
    "distributed_systems/dapper-a-large-scale-distributed-tracing-infrastructure.pdf":
        "41baea09d066e0167ca0943968d44f7f07790be700440427f78c034910e5765d",
    "distributed_systems/in-search-of-an-understandable-consensus-algorithm.pdf":
        "8c7969f857ffb69cc25c6ce599ca23ef7759e35d1762bef39c987731ab0ca6a2",
    "distributed_systems/large-scale-incremental-processing-using-distributed-transactions-and-notifications.pdf":
        "7a9e42fc3e58da94339eec8cba0468871815808fca5eef9158d46313331cea06",
    "distributed_systems/mapreduce-simplified-data-processing-on-large-clusters.pdf":
        "ae84cc48ff0005c5a79e095039e54e91dce5c116f65746e1593e819d21830ce9",
    "distributed_systems/mesos-a-platform-for-fine-grained-resource-sharing-in-the-data-center.pdf":
        "d1d9c8a0173032ee8f6702ea98fc2dbe785621c9e8970b9a1e06ac60f3354501",
    "distributed_systems/the-chubby-lock-service-for-loosely-coupled-distributed-systems.pdf":
        "0747c84a49d32744a2744e2f2951b05fb7a0829ce44afb0b700833eb2bb3ecdd",
    "distributed_systems/zookeeper-wait-free-coordination-for-internet-scale-systems.pdf":
        "743d56888f7b698cf4d0a86a4538793bbbf3c94c8e21d5c27dc34369d56102a0",
}  # fmt: skip


def build(out: Path, source: Path) -> None:
    for path, sha256 in PAPERS.items():
        (out / Path(path).name).write_bytes(read_checked(source, path, sha256))


def main() -> None:
    build_main("papers", build, [SOURCE])


if __name__ == "__main__":
    main()

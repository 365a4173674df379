"""Names judged over the whole document: in prose, whole, not a title, not a role's phrase."""

from __future__ import annotations

from citewise.graph.extract import extract
from citewise.graph.model import ChunkText


def _keys(*texts: str) -> set[str]:
    graph = extract(ChunkText(i, t, "") for i, t in enumerate(texts, start=1))
    return {e.key for e in graph.entities}


def test_table_cells_of_everyday_words_are_no_name() -> None:
    keys = _keys(
        "We ran a mix of jobs on the Mesos Cluster for a week.",
        "To evaluate it we ran a | Bin | Job Type | Map Tasks | Reduce Tasks",
    )
    assert "mesos cluster" in keys
    assert not keys & {"map tasks", "reduce tasks", "job type"}


def test_a_name_only_ever_inside_a_longer_one_is_a_fragment() -> None:
    keys = _keys(
        "The services are provided by 21st Century Oncology to the patients of the clinic.",
        "Payments to 21st Century Oncology are due when the Valve Controller ships.",
    )
    assert "century oncology" not in keys
    assert "valve controller" in keys


def test_a_run_of_everyday_words_that_only_titles_a_clause_is_no_name() -> None:
    keys = _keys(
        "7. Payment Terms. The buyer pays the seller within thirty days.",
        "The Sensor Bus Interface is read by the buyer when it pays.",
    )
    assert "payment terms" not in keys
    assert "sensor bus interface" in keys


def test_a_defined_role_of_something_is_a_description() -> None:
    keys = _keys(
        'This Distribution Agreement is made between Acme Pumps Limited ("Distributor") and '
        'Borealis Trading GmbH ("Supplier").',
        "The Distributor of Borealis Pumps shall keep the stock in the warehouse.",
    )
    assert "distributor of borealis pumps" not in keys
    assert "acme pumps limited" in keys


def test_an_acronym_and_an_everyday_word_run_together_are_no_name() -> None:
    keys = _keys(
        "Spanner waits until the TTinterval has passed before it commits the write.",
        "Bigtable stores its data in SSTable files, and Spanner reads the TTinterval again.",
    )
    assert "ttinterval" not in keys
    assert "sstable" in keys  # an acronym before "Table", as the paper writes it


def test_a_word_an_accent_cut_is_no_name() -> None:
    keys = _keys(
        "Thanks to our colleagues H˚akon Brug˚ard and Knut Omang, who first raised it.",
        "Jimen´ez-Peris and Pati˜no-Mart´ınez call it a ROWAA approach; Knut Omang agreed.",
    )
    assert not keys & {"brug", "pati", "mart"}
    assert "knut omang" in keys


def test_labels_seen_only_in_a_figure_or_a_caption_are_no_name() -> None:
    keys = _keys(
        "Percolator reads less than Bigtable does, as the chart shows.",
        "Table 2: Comparison of FDS MinuteSort results with the standing records.",
        "We ran FDS against the records on the Sorting Cluster for a week.",
        "Shown as a CCDF 10-5 10-4 10-3 1% 10% 100% in the chart of Figure 4.",
    )
    assert not keys & {"ccdf", "comparison of fds minutesort"}
    assert {"bigtable", "fds", "sorting cluster"} <= keys


def test_letters_run_into_a_word_and_a_label_run_into_an_identifier_are_no_name() -> None:
    keys = _keys(
        "Only update requests are Alinearizable, so each replica serves reads locally.",
        "A linearizable read goes to the leader; the Executor Actions sendStatus(taskId).",
        "ZooKeeper serves reads locally. The Executor calls sendStatus when a task ends.",
    )
    assert not keys & {"alinearizable", "executor actions sendstatus"}
    assert "zookeeper" in keys


def test_a_name_only_written_before_a_possessive_title_word_is_the_titles_start() -> None:
    keys = _keys(
        "The procedure is in the Debian Developer’s Reference, chapter five.",
        "Raft is simpler than Leslie Lamport’s Paxos, as the Debian Developer’s Reference says.",
    )
    assert "debian developer" not in keys
    assert "leslie lamport" in keys


def test_a_name_before_a_list_of_versions_is_not_in_a_figure() -> None:
    keys = _keys("Keyword: Zope; Meaning: Zope Public License 1.0, 1.1, 2.0, 2.1. Use it.")
    assert "zope public license" in keys

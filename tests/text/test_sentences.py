from __future__ import annotations

from citewise.text.sentences import (
    attach_marker,
    content_words,
    is_definition_line,
    item_label,
    split_labelled,
    split_sentences,
    stem,
    strip_citation_marks,
    topic_stem,
    word_trigrams,
)


def test_splits_plain_sentences() -> None:
    assert split_sentences("Rotate logs nightly. Keep seven files! Why? Disk space.") == [
        "Rotate logs nightly.",
        "Keep seven files!",
        "Why?",
        "Disk space.",
    ]


def test_does_not_split_after_eg_ie_or_etc() -> None:
    text = "Use a module, e.g. Json or Pickle, i.e. The stdlib ones, etc. Then save."
    assert split_sentences(text) == [text]


def test_version_numbers_and_dotted_identifiers_stay_whole() -> None:
    text = "Python 3.11 adds tomllib. Call os.path.join() to join paths."
    assert split_sentences(text) == [
        "Python 3.11 adds tomllib.",
        "Call os.path.join() to join paths.",
    ]


def test_ellipsis_in_code_does_not_end_a_sentence() -> None:
    assert split_sentences("Call f(1, ...) With care.") == ["Call f(1, ...) With care."]


def test_code_lines_are_units_of_their_own() -> None:
    text = "For example:\n>>> round(2.5)\n2\nThe result is even."
    assert split_sentences(text) == ["For example:", ">>> round(2.5)", "2", "The result is even."]


def test_hard_wrapped_prose_is_joined() -> None:
    text = "The default level is\nwarning, so info is hidden.\nNext line."
    assert split_sentences(text) == [
        "The default level is warning, so info is hidden.",
        "Next line.",
    ]


def test_a_list_item_ends_at_its_line_when_the_next_opens_with_a_call() -> None:
    text = (
        "- ...args {any} Additional arguments to pass when invoking the callback\n"
        'process.nextTick() adds callback to the "next tick queue".\n'
        "- a wrapped item that goes on\nacross two lines."
    )
    assert split_sentences(text) == [
        "- ...args {any} Additional arguments to pass when invoking the callback",
        'process.nextTick() adds callback to the "next tick queue".',
        "- a wrapped item that goes on across two lines.",
    ]


def test_citation_marker_after_full_stop_stays_with_its_sentence() -> None:
    assert split_sentences("Order is kept. [1] Keys go last. [2, 3]") == [
        "Order is kept. [1]",
        "Keys go last. [2, 3]",
    ]


def test_initials_do_not_end_a_sentence() -> None:
    assert split_sentences("Written by J. Smith in 2020.") == ["Written by J. Smith in 2020."]


def test_content_words_drop_stopwords_and_single_letters() -> None:
    assert content_words("What is the default level of a logger?") == ["default", "level", "logger"]


def test_stem_conflates_plurals_and_verb_forms() -> None:
    assert stem("dictionaries") == stem("dictionary")
    assert stem("sorted") == stem("sorting") == stem("sorts")
    assert stem("raises") == stem("raised") == stem("raise")
    assert stem("3.11") == "3.11"


def test_topic_stem_reduces_negated_participles_and_adjectives_to_their_root() -> None:
    assert topic_stem("unbounded") == stem("bound") == topic_stem("bounded")
    assert topic_stem("unhashable") == stem("hashable")
    for word in ("unless", "unique", "unicode", "understand", "unit", "unused"):
        assert topic_stem(word) == stem(word), word
    assert stem("unordered") != stem("ordered")  # support checks keep the negation apart


def test_word_trigrams_keep_only_topic_bearing_ones() -> None:
    grams = word_trigrams(["the", "default", "level", "is", "warning"])
    assert ("default", "level", "is") in grams
    assert ("the", "default", "level") in grams
    assert ("level", "is", "warning") in grams
    assert all(g != ("is", "the", "a") for g in grams)
    assert word_trigrams(["it", "is", "the"]) == set()


def test_attach_marker_goes_before_final_punctuation() -> None:
    assert attach_marker("Keys keep their order.", (2,)) == "Keys keep their order [2]."
    assert attach_marker("For example", (1, 3)) == "For example [1, 3]"


def test_strip_citation_marks() -> None:
    assert strip_citation_marks("Keys keep order [1, 2]. Rest [3]") == "Keys keep order. Rest"


OPTIONS = (
    "Options:\n"
    "  - maxBuffer {number} Largest amount of data allowed on stdout. If exceeded, the child"
    " is terminated. See caveat at maxBuffer and Unicode. Default: 1024 * 1024.\n"
    "  - killSignal {string|integer} Default: 'SIGTERM'\n"
    "- frozen: If true, assigning to fields raises. This emulates frozen instances.\n"
    "- The recipe uses bisect. It is fast."
)


def test_later_sentences_of_an_options_list_item_carry_the_options_name() -> None:
    plain, labelled = split_labelled(OPTIONS)
    assert plain == split_sentences(OPTIONS) and len(labelled) == len(plain)
    assert plain[4] == "Default: 1024 * 1024."
    assert labelled[2] == "maxBuffer: If exceeded, the child is terminated."
    assert labelled[3] == "See caveat at maxBuffer and Unicode."  # names it already
    assert labelled[4] == "maxBuffer: Default: 1024 * 1024."
    assert labelled[7] == "This emulates frozen instances."
    assert labelled[9] == "It is fast."  # a prose item names no option
    assert item_label("- killSignal {string|integer} Default: 'SIGTERM'") == "killSignal"
    assert item_label("- frozen: If true, assigning raises.") == "frozen"
    assert item_label("- The recipe uses bisect.") is None


def test_a_texinfo_definition_line_is_split_from_the_text_joined_to_it() -> None:
    joined = (
        "int asn1_parser2tree (const char * file, asn1 node * [Function] definitions, "
        "char * error_desc) file: specify the path of the file with the declarations."
    )
    signature, rest = split_sentences(joined)
    assert signature.endswith("char * error_desc)") and is_definition_line(signature)
    assert rest.startswith("file: specify the path")
    assert not is_definition_line(rest)
    assert split_sentences("A [Function] tag (rare) in prose. Second.") == [
        "A [Function] tag (rare) in prose.",
        "Second.",
    ]


def test_citation_marks_are_stripped_but_index_expressions_kept() -> None:
    from citewise.text.sentences import strip_citation_marks

    assert strip_citation_marks("Leave is 28 days [1].") == "Leave is 28 days."
    assert strip_citation_marks("28 days [1, 2] and more[3]") == "28 days and more"
    assert strip_citation_marks("heap[0] is the smallest [2].") == "heap[0] is the smallest."
    assert strip_citation_marks("m[2](x) calls it [1][2]") == "m[2](x) calls it"

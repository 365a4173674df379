"""The extractive answerer's reading units: lead-ins with what they introduce, pointers and
footnote marks, comparisons, one source per answer, and "tell me more"."""

from __future__ import annotations

from answer_factories import passage
from citewise.extractive.units import (
    entry_name,
    is_prose,
    lead_in_end,
    norm_sentence,
    said_before,
    with_subject,
)
from citewise.question.terms import (
    asks_default,
    asks_error,
    asks_quantity,
    compared,
    contrast_terms,
    names_error,
    states_default,
    states_quantity,
)
from fake_embedder import answerer, one_sentence_answer


def test_lead_in_spans_the_next_line_or_the_first_items_of_its_list() -> None:
    lines = ["Intro:", "- one", "- two", "- three", "- four", "After."]
    assert lead_in_end(lines, 0) == 4  # three items at most
    assert lead_in_end(["Use this:", "code()", "- not an item of it"], 0) == 2
    assert lead_in_end(["A sentence.", "- an item long enough to be read alone here"], 0) == 1
    assert lead_in_end(["Ends the text:"], 0) == 1


def test_a_sentence_brings_along_the_short_items_that_complete_it() -> None:
    lines = ["The marker ending each line.", "- LF on POSIX", "- CRLF on Windows", "Next."]
    assert lead_in_end(lines, 0) == 3
    assert lead_in_end(lines, 1) == 2  # an item does not bring its siblings
    p = passage(1, "Unrelated note on files.\n" + "\n".join(lines))
    a, _ = answerer(max_sentences=1)
    r = a.answer("Which marker is ending each line on POSIX?", [p])
    assert r.text == "The marker ending each line [1]. - LF on POSIX [1] - CRLF on Windows [1]"


def test_a_lead_in_is_scored_and_quoted_with_the_list_it_introduces() -> None:
    p = passage(
        1,
        "Some unrelated remark about pickle.\n"
        "There are differences between these:\n"
        "- A tuple is an immutable sequence.\n"
        "- A list is a mutable sequence.\n",
    )
    a, _ = answerer(max_sentences=1)
    r = a.answer("Is a tuple immutable and a list mutable?", [p])
    assert "There are differences between these: - A tuple is an immutable sequence [1]." in r.text
    assert "- A list is a mutable sequence [1]." in r.text


def test_a_short_lead_in_counts_as_prose_with_its_items() -> None:
    p = passage(1, "Pickle:\n- is a protocol version for python value serialization\n")
    a, _ = answerer()
    r = a.answer("What is the pickle protocol?", [p])
    assert r.text.startswith("Pickle: - is a protocol version")


def test_sentences_pointing_elsewhere_are_never_the_answer() -> None:
    p = passage(
        1,
        "See the logging reference for the default level and events tracked. "
        "The reference for the logging module contains an explanation of this. "
        "Logging events are tracked at the WARNING level by default.",
    )
    a, _ = answerer(max_sentences=3)
    r = a.answer("Which logging level is tracked by default?", [p])
    assert r.text == "Logging events are tracked at the WARNING level by default [1]."


def test_notices_and_dangling_demonstratives_are_not_answers() -> None:
    assert not is_prose("Copyright © 2000-2022 Valgrind Developers", 4)
    assert not is_prose("© 2024 Acme Corp. All rights reserved.", 4)
    assert is_prose("Copyright law protects software in most countries.", 4)
    assert not is_prose("By default, Massif does not measure these.", 4)
    assert is_prose("These are the options Massif accepts.", 4)


def test_pointers_in_other_words_are_not_prose_either() -> None:
    pointer = "For more information about the level, you can see the logging reference."
    assert not is_prose(pointer, 4)
    assert not is_prose("Refer to the logging reference for the default level.", 4)
    assert not is_prose("For details, consult the logging reference.", 4)
    assert is_prose("Seeing the default level tracked is easy with logging.", 4)
    assert is_prose("For more information, the logger keeps every record it tracked.", 4)


def test_a_pages_own_footnote_marks_are_dropped_but_code_indexes_kept() -> None:
    p = passage(
        1, "The default pickle protocol version is 4 [2]. Use heap[0] as the default value."
    )
    a, _ = answerer(max_sentences=1)
    r = a.answer("What is the default pickle protocol version?", [p])
    assert r.text == "The default pickle protocol version is 4 [1]."
    b, _ = answerer(max_sentences=1)
    assert "heap[0]" in b.answer("What is the default heap value?", [p]).text


def test_comparison_sides_lose_their_auxiliary_verbs() -> None:
    assert compared("How does pickle compare with JSON?") == ("pickle", "JSON")
    assert compared("What is the difference between copy() and deepcopy()?") == (
        "copy()",
        "deepcopy()",
    )
    assert compared("What does pickle do?") is None


def test_each_side_of_a_comparison_is_told_apart_by_one_word() -> None:
    assert contrast_terms("How does pickle compare with JSON for serializing data?") == (
        "pickl",
        "json",
    )
    assert contrast_terms("What is the difference between a shallow copy and a deep copy?") == (
        "shallow",
        "deep",
    )
    assert contrast_terms("What does pickle do?") is None


def test_a_comparison_is_answered_by_the_page_that_sets_both_sides_side_by_side() -> None:
    tutorial = passage(
        1,
        "Contrary to JSON, pickle is a protocol for serializing arbitrary Python objects. "
        "Pickle is a module of the standard library. JSON is a text format for data.",
        source="tutorial.html",
    )
    reference = passage(
        2,
        "There are differences between pickle and JSON:\n"
        "- JSON is a text serialization format, while pickle is a binary format;\n"
        "- JSON is human-readable, while pickle is not;\n"
        "- JSON is interoperable, while pickle is Python-specific.",
        source="pickle.html",
    )
    a, _ = answerer()
    r = a.answer("How does pickle compare with JSON?", [tutorial, reference])
    assert [p.hit.source for p in r.used_passages] == ["pickle.html"]
    assert "human-readable, while pickle is not" in r.text
    # one such sentence only: a sentence for each side, as for any two-part question
    r = a.answer("How does pickle compare with JSON?", [tutorial])
    assert "Pickle is a module" in r.text and "JSON is a text format for data" in r.text


def test_a_part_is_answered_from_the_answers_document_when_it_does_nearly_as_well() -> None:
    level = passage(
        1,
        "The default logging level is WARNING. Info messages are tracked when configured.",
        source="howto/logging.html",
    )
    never = passage(2, "Info messages are never tracked by default.", source="library/logging.html")
    question = "What is the default logging level, and are info messages tracked?"
    best_anywhere, _ = answerer(same_source_margin=0.0, type_weight=0.0, polarity_weight=0.0)
    r = best_anywhere.answer(question, [level, never])
    assert r.text.startswith("Info messages are never tracked by default [2].")
    assert "tracked when configured [1]" in r.text
    one_source, _ = answerer(same_source_margin=0.5, type_weight=0.0, polarity_weight=0.0)
    r = one_source.answer(question, [level, never])
    assert "tracked when configured" not in r.text  # doc 2 already says it nearly as well


def test_tell_me_more_reads_on_where_the_previous_answer_stopped() -> None:
    p = passage(
        1,
        "Dictionaries preserve insertion order. "
        "Keys added after deletion are inserted at the end. "
        "Dictionary views are dynamic. Sets are unordered. Lists are sequences. "
        "Dictionary order is kept by every python version.",
    )
    said = norm_sentence("Dictionaries preserve insertion order [1].")
    question = "Do dictionaries keep insertion order?"
    plain, _ = answerer(max_sentences=1, already_said=said, said_bonus=0.0)
    assert plain.answer(question, [p]).text.startswith("Dictionary order is kept")
    more, _ = answerer(max_sentences=1, already_said=said)
    assert more.answer(question, [p]).text.startswith("Dictionary views are dynamic")


def test_said_before_means_the_whole_sentence_in_whole_words() -> None:
    said = norm_sentence("Dictionaries preserve insertion order [1]. Sets are unordered [2].")
    assert said_before("Sets are unordered.", said)
    assert said_before("Dictionaries preserve insertion order", said)
    assert not said_before("are unord", said)  # part of a word is not a word
    assert not said_before("...", said)  # no words: nothing was said
    assert not said_before(">>>", said)
    assert not said_before("Sets are unordered.", "")


def test_a_wordless_line_does_not_make_what_follows_a_continuation() -> None:
    said = norm_sentence("Dictionaries preserve insertion order [1].")
    p = passage(
        1,
        "Keys added after deletion are inserted at the end.\n...\n"
        "Dictionary views are dynamic. Sets are unordered. Lists are sequences. Tuples are too. "
        "Dictionary order is kept by every python version.",
    )
    more, _ = answerer(max_sentences=1, already_said=said)
    # were "..." taken as said, the view sentence right after it would get the bonus
    assert more.answer("Do dictionaries keep insertion order?", [p]).text.startswith(
        "Dictionary order is kept"
    )


def test_tell_me_more_reads_on_in_the_document_of_the_previous_answer() -> None:
    said_text = "Dictionaries preserve insertion order."
    home = passage(
        1,
        f"{said_text} Dictionary views reflect later changes to the dictionary keys.",
        source="stdtypes.html",
    )
    other = passage(
        2,
        "Dictionaries keep insertion order since version 3.7 of the dictionary order rules.",
        source="whatsnew.html",
    )
    question = "Do dictionaries keep insertion order?"
    said = norm_sentence(said_text)
    new_question, _ = answerer(max_sentences=2)
    r = new_question.answer(question, [home, other])
    assert "whatsnew.html" in {p.hit.source for p in r.used_passages}
    more, _ = answerer(max_sentences=2, already_said=said, relative_floor=1.0)
    r = more.answer(question, [home, other])
    assert [p.hit.source for p in r.used_passages] == ["stdtypes.html"]
    assert r.text == "Dictionary views reflect later changes to the dictionary keys [1]."
    # nothing from the previous answer among the passages: a new answer from all of them
    elsewhere, _ = answerer(max_sentences=1, already_said=norm_sentence("Unrelated words here."))
    assert not elsewhere.answer(question, [home, other]).abstained


def test_tell_me_more_reads_on_in_the_passage_where_the_answer_stopped() -> None:
    said_text = "An enumeration is a set of symbolic names bound to unique values."
    where = passage(
        1,
        f"{said_text} The enum members have names and values. Members act as constants.",
        source="enum.html",
    )
    elsewhere = passage(
        2,
        "An enumeration ignores names listed in _ignore_ while the enumeration is created.",
        source="enum.html",
    )
    more, _ = answerer(max_sentences=2, already_said=norm_sentence(said_text))
    r = more.answer("What is an enumeration?", [where, elsewhere])
    assert [p.n for p in r.used_passages] == [1]
    assert "names and values" in r.text


def test_an_example_caption_is_no_answer_unless_an_example_is_asked_for() -> None:
    p = passage(
        1,
        "Example of an unbounded cache for web pages:\n@lru_cache(maxsize=None)\n"
        "If maxsize is set to None the cache can grow without bound.",
    )
    a, _ = answerer(max_sentences=1)
    r = a.answer("How do I make the cache unbounded?", [p])
    assert r.text == "If maxsize is set to None the cache can grow without bound [1]."
    r = a.answer("Show me an example of an unbounded cache for web pages", [p])
    assert r.text.startswith("Example of an unbounded cache")


def test_how_many_is_answered_by_a_sentence_stating_a_quantity() -> None:
    assert asks_quantity("How many bytes of randomness are sufficient?")
    assert not asks_quantity("Which module makes tokens?")
    assert states_quantity("It is believed that 32 bytes are sufficient.")
    assert not states_quantity("That argument is taken as the number of bytes.")
    p = passage(
        1,
        "The pickle protocol version argument is taken as the pickle protocol version number. "
        "Pickle has 6 of them.",
    )
    a, _ = answerer(max_sentences=1)
    assert a.answer("How many pickle protocol versions are there?", [p]).text == (
        "Pickle has 6 of them [1]."
    )


def test_of_two_equal_sentences_the_one_from_the_document_most_passages_come_from_wins() -> None:
    said = "Logging events are tracked at the WARNING level by default."
    lone = passage(1, said, source="faq.html")
    home = [
        passage(2, said, source="logging.html"),
        passage(3, "The logging module defines handlers.", source="logging.html"),
    ]
    a, _ = answerer(max_sentences=1)
    r = a.answer("Which logging level is tracked by default?", [lone, *home])
    assert [p.hit.source for p in r.used_passages] == ["logging.html"]
    a, _ = answerer(max_sentences=1, document_weight=0.0)
    r = a.answer("Which logging level is tracked by default?", [lone, *home])
    assert [p.hit.source for p in r.used_passages] == ["faq.html"]  # rank decides alone


def test_the_document_prior_never_lifts_an_answer_over_the_abstention_threshold() -> None:
    ps = [passage(n, "The logging module defines handlers.", source="logging.html") for n in (1, 2)]
    a, _ = answerer(document_weight=5.0)
    r = a.answer("What is the default pickle protocol version?", ps)
    assert r.abstained


def test_c_code_lines_are_no_prose() -> None:
    assert not is_prose("typedef struct { char *next_in;", 4)
    assert not is_prose("#define BZ_RUN 0 /* the action to run */", 4)
    assert is_prose("Use a dict like {'a': 1} to configure the logger.", 4)
    assert is_prose("The value is set; see below for more details on it.", 4)
    assert is_prose("struct timeval holds the time in seconds and microseconds.", 4)


def test_entry_names_come_from_api_headings_only() -> None:
    assert entry_name("Built-in Exceptions > exception KeyError") == ("KeyError", "KeyError")
    assert entry_name("os > os.cpu_count()") == ("os.cpu_count()", "cpu_count")
    assert entry_name("classmethod datetime.utcnow()") == ("datetime.utcnow()", "utcnow")
    shown = "time.perf_counter() → float"
    assert entry_name(f"time > Functions > {shown}") == (shown, "perf_counter")
    assert entry_name("CLI > --inspect[=[host:]port]") == ("--inspect[=[host:]port]", "--inspect")
    # a heading holding ">" is still one heading; options with an argument or an alias
    assert entry_name("Command line > -m <module-name>") == ("-m <module-name>", "-m")
    assert entry_name("CLI > -c, --check") == ("-c, --check", "-c")
    assert entry_name("Command line > -W arg") == ("-W arg", "-W")
    assert entry_name("f > conv(x) -> int") == ("conv(x) -> int", "conv")
    long = (
        "class dataclasses.dataclass(*, init=True, repr=True, eq=True, order=False, frozen=False)"
    )
    assert entry_name(long) == ("dataclasses.dataclass()", "dataclass")
    assert entry_name("Environment variables > PYTHONPATH") == ("PYTHONPATH", "PYTHONPATH")
    # C declarations: a size type, a pointer to a capitalised type
    sized = "Py_ssize_t PyDict_Size(PyObject *p)"
    assert entry_name(sized) == ("PyDict_Size(PyObject *p)", "PyDict_Size")
    assert entry_name("PyObject *PyDict_New()") == ("PyDict_New()", "PyDict_New")
    assert entry_name("const char *PyUnicode_AsUTF8(PyObject *s)")[1] == "PyUnicode_AsUTF8"  # type: ignore[index]
    prose_headings = ("Data Structures > 5.3. Tuples and Sequences", "Tuples", "path hooks", "FAQ")
    for prose in (*prose_headings, "Using asyncio.run()"):
        assert entry_name(prose) is None


def test_a_sentence_under_an_api_heading_gets_the_entry_as_its_subject() -> None:
    section = "os > os.cpu_count()"
    assert with_subject("Return the number of CPUs in the system.", section) == (
        "os.cpu_count(): Return the number of CPUs in the system."
    )
    named = "On Linux, cpu_count() counts the CPUs of the machine."
    assert with_subject(named, section) == named
    for kept in ("- a list item", ">>> os.cpu_count()", "OSError: when it fails."):
        assert with_subject(kept, section) == kept
    assert with_subject("Return the CPUs.", "Intro > Counting CPUs") == "Return the CPUs."
    p = passage(1, "Return the number of CPUs in the system.", section=section)
    a, _ = answerer()
    r = a.answer("How do I get the number of CPUs in the system?", [p])
    assert r.text == "os.cpu_count(): Return the number of CPUs in the system [1]."


def test_sentences_of_the_entry_named_by_the_question_count_its_name() -> None:
    entry = passage(
        1,
        "Return a random element from the sequence. If it is empty, raises IndexError.",
        section="random > random.choice(seq)",
    )
    a, _ = answerer(max_sentences=1, rank_weight=0.0, document_weight=0.0, heading_weight=0.0)
    r = a.answer("What does random.choice() raise?", [entry])
    assert r.text == "random.choice(seq): If it is empty, raises IndexError [1]."


def test_what_does_it_raise_is_answered_by_a_sentence_naming_an_exception() -> None:
    assert asks_error("What does random.choice() raise for an empty sequence?")
    assert asks_error("Which exception is raised when a key is missing?")
    assert asks_error("What error does fs.readFile throw for a missing file?")
    assert not asks_error("What does gather() do when one of the awaitables raises an error?")
    assert not asks_error("Which methods must it implement, and can it suppress what is raised?")
    assert names_error("If it is empty, raises IndexError.")
    assert names_error("It throws ERR_INVALID_ARG_TYPE.")
    assert not names_error("It raises an error when the sequence is empty.")
    text = (
        "Choosing from an empty sequence raises an error in random choice. "
        "For an empty sequence, random choice raises IndexError."
    )
    question = "What does random.choice() raise for an empty sequence?"
    answer = one_sentence_answer(question, text, "random > random.choice(seq)")
    assert answer == "For an empty sequence, random choice raises IndexError [1]."


def test_an_options_default_is_answered_with_the_options_name() -> None:
    assert is_prose("maxBuffer: Default: 1024 * 1024.", 4)
    assert is_prose("- killSignal {string|integer} Default: 'SIGTERM'", 4)
    assert not is_prose("Default: false.", 4)
    text = (
        "Options:\n"
        "- maxBuffer {number} Largest amount of data allowed. Default: 1024 * 1024.\n"
        "- killSignal {string} Default: 'SIGTERM'\n"
    )
    answer = one_sentence_answer("What is the default maxBuffer?", text, "cp > exec(command)")
    # the option's name leads its default, and the next option is not carried along
    assert answer == "maxBuffer: Default: 1024 * 1024 [1]."


def test_what_is_the_default_is_answered_by_a_sentence_about_the_default() -> None:
    assert asks_default("What is the default weight of a glob pattern?")
    assert not asks_default("How many glob patterns are there by default?")  # a quantity
    assert states_default("The default weight value is 50.")
    assert not states_default("The lines are ordered by weight.")
    text = (
        "The glob file lists the weight of each pattern for the pool. "
        "The default weight value is 50, and the maximum is 100."
    )
    answer = one_sentence_answer("What is the default weight of a glob pattern in the pool?", text)
    assert answer == "The default weight value is 50, and the maximum is 100 [1]."


def test_a_texinfo_definition_line_is_no_answer() -> None:
    signature = "int asn1_write_value (asn1 node root, const char * name, [Function] int len)"
    assert not is_prose(signature, 4)


def test_a_line_of_code_with_a_comment_is_no_answer() -> None:
    assert not is_prose("self._dept = dept            # Store to private attribute", 4)
    assert not is_prose("def name(self):   # Read-only descriptor for the name", 4)
    assert not is_prose("class Immutable: # instances cannot be changed later", 4)
    assert is_prose("The class attribute is shared by all instances.", 4)
    assert is_prose("From Python 3.8 on, this is the default behaviour.", 4)


def test_acronyms_are_words() -> None:
    assert is_prose("- Returns: {string} Generates a random RFC 4122 version 4 UUID.", 4)
    assert is_prose('BOOLEAN: VALUE must be the string "TRUE" or "FALSE" and LEN != 0.', 4)
    assert not is_prose("ASN1_SUCCESS = 0x01 | ASN1_ERROR = 0x02", 4)


def test_the_sentence_saying_how_to_do_so_follows_the_answer() -> None:
    text = (
        "A common use case for the logging events is to track the default level. "
        "The easiest way to do so is a handler on the root logger. "
        "Handlers are many."
    )
    answer = one_sentence_answer("How do I track logging events at the default level?", text)
    assert answer == (
        "A common use case for the logging events is to track the default level [1]. "
        "The easiest way to do so is a handler on the root logger [1]."
    )


def test_a_lead_in_brings_items_without_marks_while_one_runs_on_into_the_next() -> None:
    sentences = [
        "When you submit your expense report for reimbursement, please:",
        "Indicate the recipient and the purpose of the gift in the notes; and",
        "Include a copy of the email approval",
        "Gifts to officials are never acceptable.",
    ]
    assert lead_in_end(sentences, 0) == 3
    assert lead_in_end(["Do this:", "Set the flag on; and", "x = 1"], 0) == 2  # not into code


def test_a_question_reported_is_no_answer() -> None:
    reported = "New Dapper users often wonder if low sampling probabilities will interfere."
    assert not is_prose(reported, 4)
    assert is_prose("We found a sampling rate as low as 1/1024 still adequate.", 4)

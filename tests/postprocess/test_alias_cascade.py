"""NameAlias and CascadedEntityRules: what they tag, and what they leave alone."""

from skbioner import Sentence
from skbioner.postprocess import CascadedEntityRules, LabelledDocument, NameAlias


def doc(sentences, labels, doc_id="d"):
    sents = tuple(Sentence(s.split(), doc_id=doc_id) for s in sentences)
    return LabelledDocument(doc_id, sents, tuple(lab.split() for lab in labels))


def test_alias_of_an_earlier_entity_takes_its_class():
    step = NameAlias(min_initials=2).fit([], [])
    d = doc(["T cell factor binds", "then TCF and IL2 bind XYZ", "interleukin 2 and IL2"],
            ["B-protein I-protein I-protein O", "O O O O O O",
             "B-protein I-protein O O"])
    out = step.correct(d)
    assert out[1] == "O B-protein O O O O".split()  # IL2 comes before "interleukin 2"
    assert out[2] == "B-protein I-protein O B-protein".split()


def test_alias_leaves_tagged_tokens_unless_relabel():
    d = doc(["T cell factor binds TCF"], ["B-protein I-protein I-protein O B-DNA"])
    assert NameAlias(relabel=False).fit([], []).correct(d)[0] == list(d.labels[0])
    out = NameAlias(relabel=True).fit([], []).correct(d)
    assert out[0] == "B-protein I-protein I-protein O B-protein".split()


def _train():
    X, y = [], []
    for _ in range(3):
        X += [Sentence("the IL-2 gene is".split()), Sentence("IL-2 binds".split()),
              Sentence("IL-4 gene and IL-4".split())]
        y += [["O", "B-DNA", "I-DNA", "O"], ["B-protein", "O"],
              ["B-DNA", "I-DNA", "O", "B-protein"]]
    return X, y


def test_cascade_rules_are_mined_from_flat_entities():
    step = CascadedEntityRules(min_count=3).fit(*_train())
    assert ((("E", "protein"), ("W", "gene")), "DNA", 6) in step.rules_
    assert step.entity_strings_["IL-2"] == "protein"


def test_cascade_rules_join_entities_and_relabel():
    step = CascadedEntityRules(min_count=3, relabel=True).fit(*_train())
    d = doc(["the IL-2 gene is", "IL-4 gene here", "a gene"],
            ["O B-protein O O", "B-protein I-protein O", "O O"])
    out = step.correct(d)
    assert out[0] == "O B-DNA I-DNA O".split()
    assert out[1] == "B-DNA I-DNA O".split()  # relabelled: its cover is protein + gene
    assert out[2] == ["O", "O"]
    out = CascadedEntityRules(min_count=3, relabel=False).fit(*_train()).correct(d)
    assert out[1] == "B-protein I-protein O".split()
    # a rule needs min_count instances
    assert CascadedEntityRules(min_count=7).fit(*_train()).rules_ == []


def test_cascade_rules_that_the_gold_contradicts_are_dropped():
    X, y = _train()
    # "IL-2 and IL-4" is one protein twice, but two proteins six times
    X += [Sentence("IL-2 and IL-4".split())] * 2 + [Sentence("IL-4 and IL-2".split())] * 6
    y += [["B-protein", "I-protein", "I-protein"]] * 2 + [["B-protein", "O", "B-protein"]] * 6
    step = CascadedEntityRules(min_count=2).fit(X, y)
    patterns = [p for p, _, _ in step.rules_]
    assert (("E", "protein"), ("W", "and"), ("E", "protein")) not in patterns
    assert (("E", "protein"), ("W", "gene")) in patterns
    # adjacent entities are joined only with join_adjacent
    X2 = [Sentence("IL-2 IL-4 x".split())] * 3 + _train()[0]
    y2 = [["B-protein", "I-protein", "O"]] * 3 + _train()[1]
    d = doc(["IL-2 IL-4 x"], ["B-protein B-protein O"])
    assert CascadedEntityRules(min_count=3).fit(X2, y2).correct(d)[0] == \
        "B-protein B-protein O".split()
    assert CascadedEntityRules(min_count=3, join_adjacent=True).fit(X2, y2).correct(d)[0] == \
        "B-protein I-protein O".split()

"""The NERBio template set: the paper's singletons and candidate conjunctions in -3..+3."""

from skbioner.features import TokenFeaturizer, get_preset


def test_singletons_and_candidates():
    groups = {g.name: g for g in get_preset("nerbio")}
    assert groups["w"].offsets == (-2, -1, 0, 1, 2)
    assert groups["prefix"].params["lengths"] == (3, 4, 5)
    assert groups["suffix"].params["lengths"] == (3, 4, 5)
    word_conj = [g for g in groups.values() if g.kind == "conjunction" and g.params["of"] == "word"]
    # the paper's candidates: every pair of words in -3..+3, nothing else
    assert sorted(g.offsets for g in word_conj) == [
        (i, j) for i in range(-3, 4) for j in range(i + 1, 4)]
    assert all(g.name == "&".join(f"w{k}" for k in g.offsets) for g in word_conj)
    narrow = {g.name for g in get_preset("nerbio", conjunction_span=1)}
    assert {"w-1&w0", "w-1&w1", "w0&w1"} <= narrow and "w-2&w-1" not in narrow


def test_shape_features_on_a_token():
    f = TokenFeaturizer(templates="nerbio").fit([["the", "Kappa-B", "site", "of", "IL-2", "x"]])
    names = set(f.get_feature_names_out())
    assert "wc[0]=Aaaaa_A" in names and "bwc[0]=Aa_A" in names  # shape, compressed shape
    assert "w[-3]&w[-2]=the|Kappa-B" in names  # read at the token 3 to the right of "the"
    assert "pre5[0]=Kappa" in names and "suf3[0]=a-B" in names

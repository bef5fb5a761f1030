"""FeatureGroup as data, presets."""

import pickle

import pytest

from skbioner.features import KINDS, TEMPLATE_PRESETS, FeatureGroup, TokenFeaturizer, get_preset


def test_feature_group_is_frozen_hashable_picklable():
    g = FeatureGroup("w-1&w0", "conjunction", offsets=[-1, 0], params={"of": ["word", "pos"]})
    assert g.offsets == (-1, 0)
    assert g.params["of"] == ("word", "pos")
    assert g == FeatureGroup("w-1&w0", "conjunction", (-1, 0), {"of": ("word", "pos")})
    assert hash(g) == hash(FeatureGroup("w-1&w0", "conjunction", (-1, 0), {"of": ("word", "pos")}))
    assert pickle.loads(pickle.dumps(g)) == g
    with pytest.raises(AttributeError):
        g.name = "x"
    with pytest.raises(TypeError):
        g.params["of"] = "word"
    assert FeatureGroup("w", "word", offsets=2).offsets == (2,)
    assert dict(g.params) == {"of": ("word", "pos")}
    assert "of" in repr(g)


def test_feature_group_params_copied():
    params = {"lengths": [1, 2]}
    g = FeatureGroup("p", "prefix", params=params)
    params["lengths"].append(3)
    assert g.params["lengths"] == (1, 2)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"name": "", "kind": "word"}, "name"),
        ({"name": "g", "kind": 3}, "kind"),
        ({"name": "g", "kind": "word", "offsets": ["a"]}, "offsets"),
        ({"name": "g", "kind": "word", "offsets": (True,)}, "offsets"),
        ({"name": "g", "kind": "word", "offsets": None}, "offsets"),
        ({"name": "g", "kind": "word", "params": [("a", 1)]}, "mapping"),
    ],
)
def test_feature_group_type_errors(kwargs, match):
    with pytest.raises(TypeError, match=match):
        FeatureGroup(**kwargs)


def test_presets():
    assert set(TEMPLATE_PRESETS) == {"chan", "kazama", "nerbio", "zhou"}
    for name in TEMPLATE_PRESETS:
        groups = get_preset(name)
        assert all(isinstance(g, FeatureGroup) and g.kind in KINDS for g in groups)
        assert len({g.name for g in groups}) == len(groups)
    chan = {g.name: g for g in get_preset("chan")}
    assert chan["w"].offsets == (-2, -1, 0, 1, 2)
    assert {n for n in chan if "&" in n} == {
        "w-2&w-1", "w-1&w0", "w0&w1", "w1&w2", "w-2&w-1&w0", "w-1&w0&w1", "w0&w1&w2",
    }  # fmt: skip
    assert chan["prefix"].params["lengths"] == (1, 2, 3, 4, 5)
    assert chan["orthographic"].offsets == (-1, 0, 1)
    kaz = {g.name: g for g in get_preset("kazama", window=3, cache_window=4)}
    assert kaz["pos"].offsets == tuple(range(-3, 4)) and kaz["pos"].optional
    assert kaz["lwc"].params == {"side": "left", "window": 4}
    assert "substring" not in kaz
    nerbio = {g.name: g for g in get_preset("nerbio")}
    assert nerbio["w0&pos0"].params["of"] == ("word", "pos")
    assert nerbio["prefix"].params["lengths"] == (3, 4, 5)
    with pytest.raises(ValueError, match="unknown template preset"):
        get_preset("nope")
    with pytest.raises(TypeError, match="preset 'chan'"):
        get_preset("chan", windw=3)


def test_template_names_of_presets():
    assert TokenFeaturizer(templates="nerbio").get_template_names() == [
        g.name for g in get_preset("nerbio")
    ]
    groups = get_preset("chan", window=1)
    names = TokenFeaturizer(templates=groups, exclude=("w-1&w0",)).get_template_names()
    assert names == [g.name for g in groups if g.name != "w-1&w0"]

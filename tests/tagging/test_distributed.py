"""Batch tagging and model selection on a local dask.distributed cluster (joblib's dask backend)."""

import joblib
import pytest
from sklearn.model_selection import GridSearchCV, GroupKFold
from sklearn.pipeline import make_pipeline

from skbioner.features import TokenFeaturizer
from skbioner.io import save_model
from skbioner.metrics import entity_f1_scorer
from skbioner.models import OnlinePACRF
from skbioner.tagging import iter_documents, tag_documents
from tests.models.toy import toy_sentences

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0")  # any free port
    with cluster, distributed.Client(cluster) as c:
        yield c


@pytest.mark.slow
def test_tagging_and_grid_search_on_dask(client, tmp_path):
    X, y = toy_sentences(40)
    model = make_pipeline(TokenFeaturizer("chan"), OnlinePACRF(max_iter=3, random_state=0))
    model.fit(X, y)
    path = tmp_path / "m.skops"
    save_model(model, path)
    for i in range(6):
        (tmp_path / f"d{i}.txt").write_text("The IL-2 gene in T cells . The p53 gene in B cells .")
    serial = list(tag_documents(model, iter_documents(tmp_path), batch_size=2))
    with joblib.parallel_config(backend="dask"):
        on_dask = list(tag_documents(path, iter_documents(tmp_path), batch_size=2, n_jobs=2,
                                       parallel_from=0))
        search = GridSearchCV(model, {"onlinepacrf__C": [0.01, 0.1]}, scoring=entity_f1_scorer,
                              cv=GroupKFold(2), n_jobs=2)
        search.fit(X, y, groups=[i % 4 for i in range(len(X))])
    assert [r.entities for r in on_dask] == [r.entities for r in serial]
    assert len(on_dask) == 6 and search.best_score_ == 1.0

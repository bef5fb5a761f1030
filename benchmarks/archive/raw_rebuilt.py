"""Raw text for a corpus released only as tokens: its text rebuilt with PubMed spacing, then tagged.

    python benchmarks/archive/raw_rebuilt.py --data ../shared/data/bc5cdr/test.tsv --model bc5cdr

BC5CDR (and other column releases) has no raw text.  This rebuilds it from the tokens the
way PubMed writes it -- no space before ``, . ; : ) ] %`` or after ``( [``, a hyphen or slash
glued to both neighbours (``Cisplatin - induced`` -> ``Cisplatin-induced``) -- with
``--sentences`` consecutive sentences per document (the file has no document boundaries:
the sentence splitter then works as on abstracts), the entities at their character offsets.
The model (``skbioner.load_model``: a bundled name or a file) tags the rebuilt text as
``skbioner tag`` does (``BioTokenizer``, the model, character offsets); the spans are
scored exactly (type and both offsets), beside the model's token-level exact F1 on the
corpus's own tokens.  The rebuilt text is an approximation (a hyphen the authors spaced is
glued here).  Reports only: nothing is chosen.  Last line of stdout: one JSON object.
"""

from __future__ import annotations

import argparse
import json

_NO_SPACE_BEFORE = frozenset(",.;:)]%")
_NO_SPACE_AFTER = frozenset("([")
_GLUE = frozenset("-/")


def rebuild(X, y, per_document):
    """``(documents, gold)``: ``per_document`` sentences a document, PubMed-like spacing."""
    from skbioner.schemes import labels_to_spans
    from skbioner.tagging import Document

    docs, gold = [], {}
    for d in range(0, len(X), per_document):
        doc_id = f"s{d}"
        parts, spans, pos = [], [], 0
        for toks, labs in zip(X[d:d + per_document], y[d:d + per_document], strict=True):
            starts, prev = [], None
            for t in toks:
                glue = prev is not None and (t in _NO_SPACE_BEFORE or prev in _NO_SPACE_AFTER
                                             or t in _GLUE or prev in _GLUE)
                if parts and not glue:
                    parts.append(" ")
                    pos += 1
                starts.append(pos)
                parts.append(t)
                pos += len(t)
                prev = t
            spans += [(typ, starts[a], starts[b - 1] + len(toks[b - 1]))
                      for typ, a, b in labels_to_spans(list(labs))]
        docs.append(Document(doc_id, "".join(parts), "<rebuilt>"))
        gold[doc_id] = spans
    return docs, gold


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="../shared/data/bc5cdr/test.tsv")
    ap.add_argument("--model", default="bc5cdr", help="a bundled model's name or a model file")
    ap.add_argument("--sentences", type=int, default=10, help="sentences per rebuilt document")
    args = ap.parse_args()

    from skbioner import load_model
    from skbioner.io import read_columns
    from skbioner.metrics import character_span_scores, entity_report
    from skbioner.tagging import tag_documents

    corpus = read_columns(args.data)
    model = load_model(args.model)
    token_f1 = entity_report(corpus.y, model.predict(corpus.X)).overall.exact.f1
    docs, gold = rebuild(corpus.X, corpus.y, args.sentences)
    pred = {r.id: [(e.type, e.start, e.end) for e in r.entities]
            for r in tag_documents(model, docs, confidence=False)}
    scores = character_span_scores(gold, pred)
    print(f"{'class':<10} {'raw-text span F1':>17}")
    for c, s in sorted(scores["per_class"].items()):
        print(f"{c:<10} {100 * s['f1']:>17.2f}")
    r = scores["overall"]
    print(f"token-level exact F1 {100 * token_f1:.2f}; rebuilt raw text span F1 "
          f"{100 * r['f1']:.2f} "
          f"(P {100 * r['precision']:.2f} R {100 * r['recall']:.2f}), gap "
          f"{100 * (token_f1 - r['f1']):+.2f}")
    print(json.dumps({"data": args.data, "model": args.model, "token_level_f1": token_f1,
                      "raw_text": scores, "documents": len(docs)}))


if __name__ == "__main__":
    main()

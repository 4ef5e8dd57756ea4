"""The official Python typesense client drives aliases, synonyms, overrides, stopwords,
schema changes and operations against the Typesense sandbox (29.0, the sandbox default)."""
import pytest

typesense = pytest.importorskip("typesense")


@pytest.fixture(scope="module")
def client(sandbox):
    from urllib.parse import urlparse

    url = urlparse(sandbox["ts"])
    c = typesense.Client({
        "nodes": [{"host": url.hostname, "port": str(url.port), "protocol": url.scheme}],
        "api_key": sandbox["ts_api_key"],
        "num_retries": 0,
        "connection_timeout_seconds": 5,
    })
    c.collections.create({"name": "py_items", "fields": [{"name": "title", "type": "string"}, {"name": "price", "type": "int32"}]})
    c.collections["py_items"].documents.import_([
        {"id": "1", "title": "wool sweater", "price": 40},
        {"id": "2", "title": "cotton pullover", "price": 30},
        {"id": "3", "title": "desk lamp", "price": 20},
    ])
    yield c
    c.collections["py_items"].delete()


def ids(result):
    return [hit["document"]["id"] for hit in result["hits"]]


def test_aliases(client):
    assert client.aliases.upsert("py_alias", {"collection_name": "py_items"}) == {"collection_name": "py_items", "name": "py_alias"}
    assert client.aliases["py_alias"].retrieve() == {"collection_name": "py_items", "name": "py_alias"}
    assert ids(client.collections["py_alias"].documents.search({"q": "lamp", "query_by": "title"})) == ["3"]
    assert client.aliases["py_alias"].delete()["name"] == "py_alias"


def test_synonyms_and_overrides(client):
    coll = client.collections["py_items"]
    coll.synonyms.upsert("knit", {"synonyms": ["sweater", "pullover"]})
    assert coll.synonyms["knit"].retrieve()["synonyms"] == ["sweater", "pullover"]
    assert sorted(ids(coll.documents.search({"q": "pullover", "query_by": "title"}))) == ["1", "2"]
    coll.overrides.upsert("lamp-first", {"rule": {"query": "lamp", "match": "exact"}, "includes": [{"id": "2", "position": 1}]})
    assert ids(coll.documents.search({"q": "lamp", "query_by": "title"})) == ["2", "3"]
    assert coll.overrides["lamp-first"].delete() == {"id": "lamp-first"}
    assert coll.synonyms["knit"].delete() == {"id": "knit"}


def test_stopwords_update_and_vote(client):
    client.stopwords.upsert("py_common", {"stopwords": ["desk"]})
    assert client.stopwords["py_common"].retrieve()["stopwords"]["stopwords"] == ["desk"]
    found = client.collections["py_items"].documents.search({"q": "desk sweater", "query_by": "title", "stopwords": "py_common"})
    assert ids(found) == ["1"]
    client.stopwords["py_common"].delete()
    changed = client.collections["py_items"].update({"fields": [{"name": "colour", "type": "string", "optional": True}]})
    assert [f["name"] for f in changed["fields"]] == ["colour"]
    assert client.operations.perform("vote") == {"success": True}

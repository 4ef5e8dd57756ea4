"""Jupyter's own kernel conformance suite, subclassed for searchbook."""
import jupyter_kernel_test


class SearchbookKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = "searchbook"
    language_name = "searchbook"
    file_extension = ".searchbook"

    completion_samples = [
        {"text": "GE", "matches": {"GET"}},
        {"text": "%se", "matches": {"%set"}},
    ]
    complete_code_samples = [
        "GET /products/_search",
        'POST /products/_search\n{"query": {"match_all": {}}}',
        "%set size = 10",
        "# only a comment",
    ]
    incomplete_code_samples = [
        'POST /products/_search\n{"query": {',
        'POST /products/_search\n{"query": {"match": {"name": """shoes',
    ]
    invalid_code_samples = [
        "SELECT * FROM products",
        "DELETE FROM books WHERE id = 1",
    ]
    code_generate_error = "SELECT * FROM products"
    code_display_data = [{"code": "%set size = 3\n%vars", "mime": "text/html"}]
    code_inspect_sample = "%connect"

"""The sample bank and the documentation generator.

Regenerate the committed documentation of the sample bank with
``apiatlas gen-docs examples/bank/docs --sample --overlays-dir examples/bank/overlays --force``
(or ``apiatlas.samples.docs_writer.write_sample_bank()``); ``tests/test_samples_sample_bank.py``
checks that the committed files equal what the code writes.
"""

"""Table codes (issue 17): a phone with no account holds a table by its code.

- `tokens`: the signed cookie, the throttle on wrong codes, which table a code opens;
- `names`: how a phone with the table's code is named in the deals and their history;
- `handover`: a phone handed to the other side to confirm, and given back;
- `views`: the code's pages (/t/<code>, its hand-over and give-back) and the answer to a phone
  whose code no longer works.
"""

"""scipy.signal's FIR filters whose answer depends on the signal's ends:
``savgol_coeffs`` and ``savgol_filter`` (``_savgol.py``: the filter through
``jaxpad.scipy.ndimage``'s padded correlation, the ``interp`` ends as a static
least-squares matrix), ``upfirdn`` and ``resample_poly`` (``_upfirdn.py``: the ends as
``jaxpad.pad`` modes; ``_polyphase.py``: the filter in polyphase form, a primitive whose
transposes are the adjoint filter and a Gram matrix), and the window and ``firwin``
designs they need, in NumPy at trace time (``_design.py``).
"""

from __future__ import annotations

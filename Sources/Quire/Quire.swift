@_exported import InkModel
@_exported import InkRender
